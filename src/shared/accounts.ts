import { z } from 'zod';
import { LIMITS } from './limits';
import { MESSAGES } from './messages';
import { MEMBER_ROLES } from './roles';
import { emailSchema } from './auth';

export const memberRoleSchema = z.enum(MEMBER_ROLES);
export const memberRolesSchema = z
  .array(memberRoleSchema)
  .min(1, MESSAGES.rolesRequired)
  .transform((roles) => [...new Set(roles)]);

export const nameSchema = z
  .string()
  .trim()
  .min(1, MESSAGES.nameRequired)
  .max(LIMITS.nameMaxLength, `Name must be at most ${LIMITS.nameMaxLength} characters.`);

export const idSchema = z.string().min(1).max(100);

export const memberSchema = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  roles: z.array(z.string()),
  lastLoginAt: z.string().nullable(),
});
export type Member = z.infer<typeof memberSchema>;

export const invitationSchema = z.object({
  name: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  createdAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  members: z.array(memberSchema),
  invitations: z.array(invitationSchema),
});
export type Account = z.infer<typeof accountSchema>;

export const switchAccountSchema = z.object({ accountId: idSchema });
export const renameAccountSchema = z.object({ accountId: idSchema.optional(), name: nameSchema });
export const inviteSchema = z.object({
  email: emailSchema,
  roles: memberRolesSchema.default(['read_only']),
  name: z.string().trim().max(LIMITS.nameMaxLength).default(''),
});
export type InviteInput = z.input<typeof inviteSchema>;
export const inviteEmailSchema = z.object({ email: emailSchema });
export const acceptInviteSchema = z.object({ token: z.string().min(10).max(200) });
export const changeRolesSchema = z.object({ userName: emailSchema, roles: memberRolesSchema });
export const removeMemberSchema = z.object({ userId: idSchema });
export const renameUserSchema = z.object({ name: nameSchema });

/** Calls on an account named by id: the REST path's {accountId}, the tRPC input's accountId. */
export const accountIdParamsSchema = z.object({ accountId: idSchema });
export const renameAccountInputSchema = renameAccountSchema.extend({ accountId: idSchema });
export const acceptInviteInputSchema = acceptInviteSchema.extend({ accountId: idSchema });

export const renamedAccountSchema = z.object({ id: z.string(), name: z.string() });
export const renamedUserSchema = z.object({ name: z.string() });

export type RenameAccountInput = z.output<typeof renameAccountSchema>;
export type InviteRequest = z.output<typeof inviteSchema>;
export type InviteEmailInput = z.output<typeof inviteEmailSchema>;
export type AcceptInviteInput = z.output<typeof acceptInviteSchema>;
export type ChangeRolesInput = z.output<typeof changeRolesSchema>;
export type RemoveMemberInput = z.output<typeof removeMemberSchema>;
export type SwitchAccountInput = z.output<typeof switchAccountSchema>;
export type RenameUserInput = z.output<typeof renameUserSchema>;

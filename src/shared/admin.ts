/**
 * The admin area (spec workspace.md §2: admin routes, global admin role): search, user and account
 * detail, sessions, the global admin role and integration definitions. Global admins only.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { INTEGRATION_TYPES, SYNC_STATUSES } from './integrations';

export const adminSearchSchema = z.object({ query: z.string().trim().max(200).default('') });
export type AdminSearch = z.output<typeof adminSearchSchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  accountCount: z.number(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  memberCount: z.number(),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;

// ---- User detail -------------------------------------------------------------------------------------

export const adminUserParamsSchema = z.object({ userId: idSchema });
export const adminAccountParamsSchema = z.object({ accountId: idSchema });

export const adminSessionSchema = z.object({
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  /** The browser that signed in, as it named itself (null when it sent none). */
  userAgent: z.string().nullable(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

export const adminUserDetailSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  accounts: z.array(
    z.object({ id: z.string(), name: z.string(), roles: z.array(z.string()), lastLoginAt: z.string().nullable() }),
  ),
  /** Sessions that are still valid (not signed out, not expired), newest first. */
  sessions: z.array(adminSessionSchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const signOutEverywhereAnswerSchema = z.object({ revoked: z.number().int() });
export type SignOutEverywhereAnswer = z.infer<typeof signOutEverywhereAnswerSchema>;

export const setGlobalAdminBodySchema = z.object({ admin: z.boolean() });
export const setGlobalAdminSchema = adminUserParamsSchema.extend(setGlobalAdminBodySchema.shape);
export type SetGlobalAdmin = z.output<typeof setGlobalAdminSchema>;

// ---- Account detail ----------------------------------------------------------------------------------

export const adminAccountDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  members: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      name: z.string(),
      roles: z.array(z.string()),
      lastLoginAt: z.string().nullable(),
    }),
  ),
  integrations: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      definitionName: z.string(),
      type: z.enum(INTEGRATION_TYPES),
      syncStatus: z.enum(SYNC_STATUSES),
      lastRunAt: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  /** Bytes of the account's folder on disk (its warehouse file and its work folders). */
  warehouseBytes: z.number().int(),
  /** The latest sign-in of a member, change to its tables, models or integrations, or sync. */
  lastActivityAt: z.string().nullable(),
});
export type AdminAccountDetail = z.infer<typeof adminAccountDetailSchema>;

// ---- Integration definitions -----------------------------------------------------------------------

export const adminDefinitionSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(INTEGRATION_TYPES),
  isCustom: z.boolean(),
  isPublic: z.boolean(),
  /** The account a custom, non-public definition is offered in. */
  accountName: z.string().nullable(),
  version: z.number().int(),
  /** Integrations of any account made from it. */
  usedBy: z.number().int(),
  createdAt: z.string(),
});
export type AdminDefinition = z.infer<typeof adminDefinitionSchema>;

/** One problem of a definition's specification text, placed in the text when it can be. */
export const specificationProblemSchema = z.object({
  message: z.string(),
  /** Where in the specification, as a dotted path (settings.properties.port.type); null for syntax errors. */
  path: z.string().nullable(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
});
export type SpecificationProblem = z.infer<typeof specificationProblemSchema>;

export const validateSpecificationSchema = z.object({ specification: z.string().max(200_000) });
export const specificationCheckSchema = z.object({
  valid: z.boolean(),
  problems: z.array(specificationProblemSchema),
});
export type SpecificationCheck = z.infer<typeof specificationCheckSchema>;

export const ADMIN_MESSAGES = {
  userNotFound: 'User not found.',
  lastAdmin: 'The last admin cannot lose the admin role. Make another user an admin first.',
  signedOutEverywhere: (n: number) => (n === 1 ? 'Signed out of 1 session.' : `Signed out of ${n} sessions.`),
} as const;

/** How long the editor waits after typing before asking the server to check the specification. */
export const SPECIFICATION_CHECK_DEBOUNCE_MS = 300;

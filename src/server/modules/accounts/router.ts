import {
  acceptInviteInputSchema,
  accountIdParamsSchema,
  changeRolesSchema,
  inviteEmailSchema,
  inviteSchema,
  removeMemberSchema,
  renameAccountInputSchema,
  switchAccountSchema,
} from '../../../shared/accounts';
import { accountProcedure, authedProcedure, publicProcedure, router } from '../../trpc/trpc';

export const accountsRouter = router({
  get: authedProcedure
    .input(accountIdParamsSchema)
    .query(({ ctx, input }) => ctx.services.accounts.getAccount(ctx, input.accountId)),

  rename: authedProcedure
    .input(renameAccountInputSchema)
    .mutation(({ ctx, input }) => ctx.services.accounts.renameAccount(ctx, input.accountId, input)),

  invite: accountProcedure
    .input(inviteSchema)
    .mutation(({ ctx, input }) => ctx.services.accounts.invite(ctx.account, input)),

  resendInvite: accountProcedure
    .input(inviteEmailSchema)
    .mutation(({ ctx, input }) => ctx.services.accounts.resendInvite(ctx.account, input)),

  cancelInvite: accountProcedure
    .input(inviteEmailSchema)
    .mutation(({ ctx, input }) => ctx.services.accounts.cancelInvite(ctx.account, input)),

  acceptInvite: publicProcedure.input(acceptInviteInputSchema).mutation(async ({ ctx, input }) => {
    const { sessionToken } = await ctx.services.accounts.acceptInvite(input.accountId, input, ctx.userAgent);
    ctx.setSession(sessionToken);
  }),

  changeRoles: accountProcedure
    .input(changeRolesSchema)
    .mutation(({ ctx, input }) => ctx.services.accounts.changeRoles(ctx.account, input)),

  removeMember: accountProcedure
    .input(removeMemberSchema)
    .mutation(({ ctx, input }) => ctx.services.accounts.removeMember(ctx.account, input)),

  switch: authedProcedure
    .input(switchAccountSchema)
    .mutation(({ ctx, input }) => ctx.services.accounts.switchAccount(ctx, input)),
});

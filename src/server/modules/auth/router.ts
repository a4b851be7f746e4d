import { loginRequestSchema, tokenSchema } from '../../../shared/auth';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc';

export const authRouter = router({
  /** Null while signed out, so the client's guard can tell "unknown" from "signed out". */
  me: publicProcedure.query(({ ctx }) => (ctx.user ? ctx.services.auth.me(ctx.user) : null)),

  requestLogin: publicProcedure
    .input(loginRequestSchema)
    .mutation(({ ctx, input }) => ctx.services.auth.requestLogin(input, ctx.clientKey)),

  confirm: publicProcedure.input(tokenSchema).mutation(async ({ ctx, input }) => {
    const { sessionToken, returnUrl } = await ctx.services.auth.confirmLogin(input, ctx.userAgent);
    ctx.setSession(sessionToken);
    return { returnUrl };
  }),

  logout: authedProcedure.mutation(async ({ ctx }) => {
    await ctx.services.auth.logout(ctx.sessionToken);
    ctx.clearSession();
  }),
});

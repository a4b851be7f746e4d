import { renameUserSchema } from '../../../shared/accounts';
import { authedProcedure, router } from '../../trpc/trpc';

export const usersRouter = router({
  rename: authedProcedure
    .input(renameUserSchema)
    .mutation(({ ctx, input }) => ctx.services.users.renameUser(ctx, input)),
});

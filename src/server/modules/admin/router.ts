import { adminSearchSchema } from '../../../shared/admin';
import { adminProcedure, router } from '../../trpc/trpc';

export const adminRouter = router({
  searchUsers: adminProcedure.input(adminSearchSchema).query(({ ctx, input }) => ctx.services.admin.searchUsers(input)),
  searchAccounts: adminProcedure
    .input(adminSearchSchema)
    .query(({ ctx, input }) => ctx.services.admin.searchAccounts(input)),
});

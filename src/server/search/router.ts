import { searchAccountParamsSchema, searchExclusionInputSchema, searchQuerySchema } from '../../shared/search';
import { accountProcedure, adminProcedure, router } from '../trpc/trpc';

/** Global search for the React client, and the admin's /admin/index; the same service as REST (rest.ts). */
export const searchRouter = router({
  query: accountProcedure
    .input(searchQuerySchema)
    .query(({ ctx, input }) => ctx.services.search.search(ctx.account, input.query)),

  indexes: adminProcedure.query(({ ctx }) => ctx.services.search.listIndexes(ctx)),
  rebuild: adminProcedure
    .input(searchAccountParamsSchema)
    .mutation(({ ctx, input }) => ctx.services.search.rebuild(ctx, input.accountId)),
  tableOptions: adminProcedure
    .input(searchAccountParamsSchema)
    .query(({ ctx, input }) => ctx.services.search.tableOptions(ctx, input.accountId)),
  exclusions: adminProcedure
    .input(searchAccountParamsSchema)
    .query(({ ctx, input }) => ctx.services.search.exclusions(ctx, input.accountId)),
  exclude: adminProcedure
    .input(searchExclusionInputSchema)
    .mutation(({ ctx, input }) => ctx.services.search.exclude(ctx, input)),
  include: adminProcedure
    .input(searchExclusionInputSchema)
    .mutation(({ ctx, input }) => ctx.services.search.include(ctx, input)),
});

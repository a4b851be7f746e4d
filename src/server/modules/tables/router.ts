import { tableCountInputSchema, tableListSchema, tablePageInputSchema, tableRefSchema } from '../../../shared/tables';
import { accountProcedure, router } from '../../trpc/trpc';

export const tablesRouter = router({
  list: accountProcedure.input(tableListSchema).query(({ ctx, input }) => ctx.services.tables.list(ctx.account, input)),
  get: accountProcedure
    .input(tableRefSchema)
    .query(({ ctx, input }) => ctx.services.tables.get(ctx.account, input.type, input.id)),
  page: accountProcedure
    .input(tablePageInputSchema)
    .query(({ ctx, input }) => ctx.services.tables.page(ctx.account, input.type, input.id, input)),
  count: accountProcedure
    .input(tableCountInputSchema)
    .query(({ ctx, input }) => ctx.services.tables.count(ctx.account, input.type, input.id, input)),
});

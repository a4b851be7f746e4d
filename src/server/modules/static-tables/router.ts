import { byIdSchema } from '../../../shared/api';
import {
  staticTableChangesInputSchema,
  staticTableListSchema,
  staticTableRenameInputSchema,
} from '../../../shared/static-tables';
import { accountProcedure, router } from '../../trpc/trpc';

export const staticTablesRouter = router({
  list: accountProcedure
    .input(staticTableListSchema)
    .query(({ ctx, input }) => ctx.services.staticTables.list(ctx.account, input)),
  createBlank: accountProcedure.mutation(({ ctx }) => ctx.services.staticTables.createBlank(ctx.account)),
  get: accountProcedure
    .input(byIdSchema)
    .query(({ ctx, input }) => ctx.services.staticTables.get(ctx.account, input.id)),
  rename: accountProcedure
    .input(staticTableRenameInputSchema)
    .mutation(({ ctx, input }) => ctx.services.staticTables.rename(ctx.account, input.id, input)),
  delete: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.staticTables.remove(ctx.account, input.id)),
  change: accountProcedure
    .input(staticTableChangesInputSchema)
    .mutation(({ ctx, input }) => ctx.services.staticTables.change(ctx.account, input.id, input)),
});

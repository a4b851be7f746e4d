import { z } from 'zod';
import { accountProcedure, router } from '../../trpc/trpc';

const byId = z.object({ id: z.string().min(1).max(100) });

/** Inputs are checked by the service's schemas; here they pass through typed loosely. */
export const staticTablesRouter = router({
  list: accountProcedure
    .input(z.object({ query: z.string().optional(), page: z.number().optional(), pageSize: z.number().optional() }))
    .query(({ ctx, input }) => ctx.services.staticTables.list(ctx.account, input)),
  createBlank: accountProcedure.mutation(({ ctx }) => ctx.services.staticTables.createBlank(ctx.account)),
  get: accountProcedure.input(byId).query(({ ctx, input }) => ctx.services.staticTables.get(ctx.account, input.id)),
  rename: accountProcedure
    .input(byId.extend({ name: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.staticTables.rename(ctx.account, input.id, input)),
  delete: accountProcedure
    .input(byId)
    .mutation(({ ctx, input }) => ctx.services.staticTables.remove(ctx.account, input.id)),
  change: accountProcedure
    .input(byId.extend({ changes: z.array(z.unknown()) }))
    .mutation(({ ctx, input }) => ctx.services.staticTables.change(ctx.account, input.id, input)),
});

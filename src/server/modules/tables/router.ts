import { z } from 'zod';
import { TABLE_TYPES, pageRequestSchema } from '../../../shared/tables';
import { accountProcedure, router } from '../../trpc/trpc';

const tableRef = z.object({ type: z.enum(TABLE_TYPES), id: z.string().min(1).max(100) });

export const tablesRouter = router({
  list: accountProcedure
    .input(z.object({ types: z.array(z.enum(TABLE_TYPES)).optional(), flatten: z.boolean().optional() }))
    .query(({ ctx, input }) => ctx.services.tables.list(ctx.account, input)),
  get: accountProcedure
    .input(tableRef)
    .query(({ ctx, input }) => ctx.services.tables.get(ctx.account, input.type, input.id)),
  page: accountProcedure
    .input(tableRef.extend(pageRequestSchema.shape).extend({ withCount: z.boolean().optional() }))
    .query(({ ctx, input }) => ctx.services.tables.page(ctx.account, input.type, input.id, input)),
  count: accountProcedure
    .input(tableRef.extend({ filterGroups: pageRequestSchema.shape.filterGroups }))
    .query(({ ctx, input }) => ctx.services.tables.count(ctx.account, input.type, input.id, input)),
});

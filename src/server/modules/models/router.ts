import { z } from 'zod';
import { accountProcedure, router } from '../../trpc/trpc';

const byId = z.object({ id: z.string().min(1).max(100) });
const byVersion = z.object({ versionId: z.string().min(1).max(100) });
const column = byId.extend({ columnKey: z.string().min(1).max(200) });

/** Inputs are checked by the service's schemas; here they pass through typed loosely. */
export const modelsRouter = router({
  list: accountProcedure.query(({ ctx }) => ctx.services.models.list(ctx.account)),
  create: accountProcedure
    .input(z.object({ name: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.models.create(ctx.account, input)),
  get: accountProcedure
    .input(byId.extend({ draft: z.boolean().optional() }))
    .query(({ ctx, input }) => ctx.services.models.get(ctx.account, input.id, { draft: input.draft })),
  getVersion: accountProcedure
    .input(byVersion)
    .query(({ ctx, input }) => ctx.services.models.getVersion(ctx.account, input.versionId)),
  versions: accountProcedure.input(byId).query(({ ctx, input }) => ctx.services.models.versions(ctx.account, input.id)),
  sourceOptions: accountProcedure
    .input(byId)
    .query(({ ctx, input }) => ctx.services.models.sourceOptions(ctx.account, input.id)),
  functions: accountProcedure.query(({ ctx }) => ctx.services.models.functions()),
  rename: accountProcedure
    .input(byId.extend({ name: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.models.rename(ctx.account, input.id, input)),
  delete: accountProcedure.input(byId).mutation(({ ctx, input }) => ctx.services.models.remove(ctx.account, input.id)),
  addColumn: accountProcedure
    .input(byId.extend({ column: z.unknown() }))
    .mutation(({ ctx, input }) => ctx.services.models.addColumn(ctx.account, input.id, input.column)),
  updateColumn: accountProcedure
    .input(column.extend({ changes: z.unknown() }))
    .mutation(({ ctx, input }) =>
      ctx.services.models.updateColumn(ctx.account, input.id, input.columnKey, input.changes),
    ),
  deleteColumn: accountProcedure
    .input(column)
    .mutation(({ ctx, input }) => ctx.services.models.deleteColumn(ctx.account, input.id, input.columnKey)),
  reorderColumns: accountProcedure
    .input(byId.extend({ columnKeys: z.array(z.string()) }))
    .mutation(({ ctx, input }) => ctx.services.models.reorderColumns(ctx.account, input.id, input)),
  setJoins: accountProcedure
    .input(byId.extend({ joins: z.array(z.unknown()) }))
    .mutation(({ ctx, input }) => ctx.services.models.setJoins(ctx.account, input.id, input)),
  setPivots: accountProcedure
    .input(byId.extend({ pivots: z.array(z.unknown()) }))
    .mutation(({ ctx, input }) => ctx.services.models.setPivots(ctx.account, input.id, input)),
  setFilterGroups: accountProcedure
    .input(byId.extend({ filterGroups: z.array(z.unknown()) }))
    .mutation(({ ctx, input }) => ctx.services.models.setFilterGroups(ctx.account, input.id, input)),
  setSort: accountProcedure
    .input(byId.extend({ sort: z.array(z.unknown()) }))
    .mutation(({ ctx, input }) => ctx.services.models.setSort(ctx.account, input.id, input)),
  publish: accountProcedure
    .input(byId)
    .mutation(({ ctx, input }) => ctx.services.models.publish(ctx.account, input.id)),
  revert: accountProcedure.input(byId).mutation(({ ctx, input }) => ctx.services.models.revert(ctx.account, input.id)),
  setActive: accountProcedure
    .input(byVersion)
    .mutation(({ ctx, input }) => ctx.services.models.setActive(ctx.account, input.versionId)),
  duplicate: accountProcedure
    .input(byId.extend({ versionId: z.string().nullable().optional(), name: z.string().optional() }))
    .mutation(({ ctx, input }) => ctx.services.models.duplicate(ctx.account, input.id, input)),
  pivotPage: accountProcedure
    .input(
      byVersion.extend({ pivotKey: z.string().min(1).max(100), page: z.number(), pageSize: z.number().optional() }),
    )
    .query(({ ctx, input }) =>
      ctx.services.models.pivotPage(ctx.account, input.versionId, input.pivotKey, {
        page: input.page,
        pageSize: input.pageSize,
      }),
    ),
  validateFunction: accountProcedure
    .input(byVersion.extend({ function: z.string(), columnKey: z.string().nullable().optional() }))
    .query(({ ctx, input }) => ctx.services.models.validateFunction(ctx.account, input.versionId, input)),
});

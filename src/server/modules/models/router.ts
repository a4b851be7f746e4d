import { byIdSchema } from '../../../shared/api';
import { createModelSchema } from '../../../shared/models';
import {
  addColumnInputSchema,
  filterGroupsSaveInputSchema,
  joinsSaveInputSchema,
  modelColumnParamsSchema,
  modelDuplicateInputSchema,
  modelGetInputSchema,
  modelRenameInputSchema,
  modelChartInputSchema,
  pivotPageInputSchema,
  pivotsSaveInputSchema,
  reorderColumnsInputSchema,
  sortSaveInputSchema,
  updateColumnInputSchema,
  validateFunctionInputSchema,
  versionIdSchema,
} from '../../../shared/models-api';
import { accountProcedure, router } from '../../trpc/trpc';

export const modelsRouter = router({
  list: accountProcedure.query(({ ctx }) => ctx.services.models.list(ctx.account)),
  create: accountProcedure
    .input(createModelSchema)
    .mutation(({ ctx, input }) => ctx.services.models.create(ctx.account, input)),
  get: accountProcedure
    .input(modelGetInputSchema)
    .query(({ ctx, input }) => ctx.services.models.get(ctx.account, input.id, input)),
  getVersion: accountProcedure
    .input(versionIdSchema)
    .query(({ ctx, input }) => ctx.services.models.getVersion(ctx.account, input.versionId)),
  versions: accountProcedure
    .input(byIdSchema)
    .query(({ ctx, input }) => ctx.services.models.versions(ctx.account, input.id)),
  sourceOptions: accountProcedure
    .input(byIdSchema)
    .query(({ ctx, input }) => ctx.services.models.sourceOptions(ctx.account, input.id)),
  functions: accountProcedure.query(({ ctx }) => ctx.services.models.functions()),
  rename: accountProcedure
    .input(modelRenameInputSchema)
    .mutation(({ ctx, input }) => ctx.services.models.rename(ctx.account, input.id, input)),
  delete: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.models.remove(ctx.account, input.id)),
  addColumn: accountProcedure
    .input(addColumnInputSchema)
    .mutation(({ ctx, input }) => ctx.services.models.addColumn(ctx.account, input.id, input.column)),
  updateColumn: accountProcedure
    .input(updateColumnInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.models.updateColumn(ctx.account, input.id, input.columnKey, input.changes),
    ),
  deleteColumn: accountProcedure
    .input(modelColumnParamsSchema)
    .mutation(({ ctx, input }) => ctx.services.models.deleteColumn(ctx.account, input.id, input.columnKey)),
  reorderColumns: accountProcedure
    .input(reorderColumnsInputSchema)
    .mutation(({ ctx, input }) => ctx.services.models.reorderColumns(ctx.account, input.id, input)),
  setJoins: accountProcedure
    .input(joinsSaveInputSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setJoins(ctx.account, input.id, input)),
  setPivots: accountProcedure
    .input(pivotsSaveInputSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setPivots(ctx.account, input.id, input)),
  setFilterGroups: accountProcedure
    .input(filterGroupsSaveInputSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setFilterGroups(ctx.account, input.id, input)),
  setSort: accountProcedure
    .input(sortSaveInputSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setSort(ctx.account, input.id, input)),
  publish: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.models.publish(ctx.account, input.id)),
  revert: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.models.revert(ctx.account, input.id)),
  undo: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.models.undo(ctx.account, input.id)),
  redo: accountProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }) => ctx.services.models.redo(ctx.account, input.id)),
  setActive: accountProcedure
    .input(versionIdSchema)
    .mutation(({ ctx, input }) => ctx.services.models.setActive(ctx.account, input.versionId)),
  duplicate: accountProcedure
    .input(modelDuplicateInputSchema)
    .mutation(({ ctx, input }) => ctx.services.models.duplicate(ctx.account, input.id, input)),
  pivotPage: accountProcedure
    .input(pivotPageInputSchema)
    .query(({ ctx, input }) => ctx.services.models.pivotPage(ctx.account, input.versionId, input.pivotKey, input)),
  chartData: accountProcedure
    .input(modelChartInputSchema)
    .query(({ ctx, input }) => ctx.services.models.chartData(ctx.account, input.versionId, input)),
  validateFunction: accountProcedure
    .input(validateFunctionInputSchema)
    .query(({ ctx, input }) => ctx.services.models.validateFunction(ctx.account, input.versionId, input)),
});

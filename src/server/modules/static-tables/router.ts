import { byIdSchema } from '../../../shared/api';
import {
  staticTableChangesInputSchema,
  staticTableListSchema,
  staticTableRenameInputSchema,
} from '../../../shared/static-tables';
import {
  importPreviewInputSchema,
  importProgressInputSchema,
  restoreKeptInputSchema,
} from '../../../shared/static-table-import';
import { columnTypeChangeInputSchema, columnTypePreviewInputSchema } from '../../../shared/static-column-types';
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
  /** A mutation, though it changes nothing: the file's head is too large for a query's address. */
  importPreview: accountProcedure
    .input(importPreviewInputSchema)
    .mutation(({ ctx, input }) => ctx.services.staticTables.previewImport(ctx.account, input.id, input)),
  /** How far the caller's import started with `progress=<token>` has got (polled by the import dialog). */
  importProgress: accountProcedure
    .input(importProgressInputSchema)
    .query(({ ctx, input }) => ctx.services.staticTables.importProgress(ctx.account, input.token)),
  restoreKept: accountProcedure
    .input(restoreKeptInputSchema)
    .mutation(({ ctx, input }) => ctx.services.staticTables.restoreKept(ctx.account, input.id, input.token)),
  columnTypePreview: accountProcedure
    .input(columnTypePreviewInputSchema)
    .query(({ ctx, input }) =>
      ctx.services.staticTables.previewColumnType(ctx.account, input.id, input.columnKey, input.type),
    ),
  changeColumnType: accountProcedure
    .input(columnTypeChangeInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.staticTables.changeColumnType(ctx.account, input.id, input.columnKey, input),
    ),
});

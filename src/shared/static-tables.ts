import { z } from 'zod';
import { LIMITS } from './limits';
import { columnSchema, filterSchema } from './tables';
import { columnFormatSchema } from './models';
import { idSchema, nameSchema } from './accounts';
import { idParamsSchema, wholeNumber } from './api';

/** Defaults of a table made by 'Add a table' (spec: 'New table', columns A and B, 10 blank rows). */
export const NEW_TABLE = { name: 'New table', columns: ['A', 'B'], rows: 10 } as const;

export const STATIC_TABLE_LIMITS = {
  maxColumns: LIMITS.maxColumns,
  maxRowsPerWrite: 100_000,
  maxEditsPerCall: 50_000,
  /** Rows one `addRows` or `appendRows` change adds. */
  maxRowsPerChange: 10_000,
  /**
   * JSON the editor puts in one changes call, well under the server's body limit (BODY_LIMIT_BYTES,
   * 1 MB by default): a large paste goes in several calls of at most this size.
   */
  editorCallBytes: 256 * 1024,
  uploadMaxBytes: 200 * 1024 * 1024,
} as const;

/** Every path that widens a table (create, replace data, add column, CSV import) says this at the limit. */
export const TOO_MANY_COLUMNS = `A table can have at most ${STATIC_TABLE_LIMITS.maxColumns} columns.`;

export const staticTableSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  modifiedAt: z.string(),
  rowCount: z.number(),
  columnCount: z.number(),
});
export type StaticTableSummary = z.infer<typeof staticTableSummarySchema>;

/** A static table's column: the spec's column, plus a number column's display format (as model columns have). */
export const staticColumnSchema = columnSchema.extend({ format: columnFormatSchema.nullable().optional() });
export type StaticTableColumn = z.infer<typeof staticColumnSchema>;

/** A cell value as typed or pasted; numbers and booleans are kept for typed columns. */
const cellSchema = z.union([z.string().max(100_000), z.number(), z.boolean()]).nullable();

/** Rows as objects keyed by columnKey, or as arrays in column order. */
export const rowsSchema = z
  .array(z.union([z.record(z.string(), cellSchema), z.array(cellSchema)]))
  .max(STATIC_TABLE_LIMITS.maxRowsPerWrite);

export const newColumnSchema = z.object({
  columnKey: z.string().max(100).optional(),
  displayName: z.string().trim().min(1, 'Column name cannot be empty.').max(LIMITS.nameMaxLength),
  description: z.string().max(2_000).nullable().optional(),
});

export const createStaticTableSchema = z.object({
  name: nameSchema,
  columns: z.array(newColumnSchema).max(STATIC_TABLE_LIMITS.maxColumns, TOO_MANY_COLUMNS).default([]),
  rows: rowsSchema.default([]),
});

export const replaceDataSchema = z.object({
  columns: z.array(newColumnSchema).min(1).max(STATIC_TABLE_LIMITS.maxColumns, TOO_MANY_COLUMNS),
  rows: rowsSchema,
});

/** A column of a CSV import's answer, named by its key and by the name shown. */
const importedColumnRef = { columnKey: z.string(), displayName: z.string() };

/**
 * What a CSV import answers: the table's columns and row count after it, and what the user is told.
 * A re-import keeps the key of each earlier column whose name a header matches (see the static
 * tables service), so models, pivots and filters reading it keep working.
 */
export const csvImportAnswerSchema = z.object({
  /** The table imported into (a new one for the New table choice). */
  tableId: z.string(),
  /** How the file was imported. */
  mode: z.enum(['Replace', 'Append', 'New']),
  rowCount: z.number(),
  /** Rows the file added (Append), or the file's rows. */
  importedRows: z.number(),
  columns: z.array(staticColumnSchema),
  /**
   * Names the copy of the previous rows and columns a Replace or Append kept: Undo in the editor
   * restores it (POST .../restore-kept) until the next change to the table drops it. Null when
   * nothing was kept (a new table).
   */
  keptToken: z.string().nullable(),
  /** Columns read as dates or date-times, with the format their values were read in (e.g. `M/D/YYYY`). */
  dateFormats: z.array(z.object({ ...importedColumnRef, type: z.enum(['Date', 'DateTime']), format: z.string() })),
  /** Earlier columns whose name no header matched: gone, and shown as removed in models reading them. */
  removedColumns: z.array(z.object(importedColumnRef)),
  /** Columns that are new to the table. */
  addedColumns: z.array(z.object(importedColumnRef)),
  /** What else to tell about a column: dates whose day and month cannot be told apart, a type not kept. */
  notes: z.array(z.object({ ...importedColumnRef, message: z.string() })),
});
export type CsvImportAnswer = z.infer<typeof csvImportAnswerSchema>;

export const renameStaticTableSchema = z.object({ id: z.string().optional(), name: nameSchema });

export const staticQuerySchema = z.object({ filters: z.array(filterSchema).max(100).default([]) });

/** Cell edits, row and column changes from the editor, applied in one transaction. */
export const tableChangeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('cells'),
    edits: z
      .array(z.object({ rowId: z.number().int(), columnKey: z.string().max(100), value: cellSchema }))
      .max(STATIC_TABLE_LIMITS.maxEditsPerCall),
  }),
  z.object({ kind: z.literal('addRows'), count: z.number().int().min(1).max(STATIC_TABLE_LIMITS.maxRowsPerChange) }),
  /**
   * Adds rows with their values (by column key) after the last row, e.g. the part of a paste below
   * the table; their ids are in the answer's `addedRowIds`.
   */
  z.object({
    kind: z.literal('appendRows'),
    rows: z
      .array(z.record(z.string().max(100), cellSchema))
      .min(1)
      .max(STATIC_TABLE_LIMITS.maxRowsPerChange),
  }),
  z.object({ kind: z.literal('deleteRows'), rowIds: z.array(z.number().int()).min(1).max(10_000) }),
  z.object({ kind: z.literal('addColumn'), column: newColumnSchema }),
  z.object({ kind: z.literal('deleteColumn'), columnKey: z.string().max(100) }),
  /**
   * Moves a row in the row order (rows are kept in `_row_id` order): it takes the id, and so the
   * place, of row `toRowId`, and the rows between shift one id toward the place it left. The
   * inverse of a move is the move from `toRowId` back to `rowId`.
   */
  z.object({ kind: z.literal('moveRow'), rowId: z.number().int().min(1), toRowId: z.number().int().min(1) }),
  /** Moves a column to a new place (0-based) in the column order. */
  z.object({ kind: z.literal('moveColumn'), columnKey: z.string().max(100), toIndex: z.number().int().min(0) }),
  z.object({
    kind: z.literal('updateColumn'),
    columnKey: z.string().max(100),
    displayName: z.string().trim().min(1).max(LIMITS.nameMaxLength).optional(),
    description: z.string().max(2_000).nullable().optional(),
    /** A number column's display format; null for none. */
    format: columnFormatSchema.nullable().optional(),
  }),
]);
export type TableChange = z.infer<typeof tableChangeSchema>;

// ---- The calls (REST and tRPC) ----

/** The 'Tables' page: a name filter and a page (query string or tRPC input). */
export const staticTableListSchema = z.object({
  query: z.string().trim().max(200).default(''),
  page: wholeNumber(z.number().int().min(1)).default(1),
  pageSize: wholeNumber(z.number().int().min(1).max(200)).default(LIMITS.defaultPageSize),
});
export type StaticTableListRequest = z.output<typeof staticTableListSchema>;

export type CreateStaticTableRequest = z.output<typeof createStaticTableSchema>;
export type ReplaceDataRequest = z.output<typeof replaceDataSchema>;
export type RenameStaticTableRequest = z.output<typeof renameStaticTableSchema>;
export type StaticQueryRequest = z.output<typeof staticQuerySchema>;

/** The editor's changes: at most 100 in one call, applied together. */
export const staticTableChangesSchema = z.object({ changes: z.array(tableChangeSchema).min(1).max(100) });
export type StaticTableChangesRequest = z.output<typeof staticTableChangesSchema>;

export const staticTableRenameInputSchema = renameStaticTableSchema.extend({ id: idSchema });
export const staticTableChangesInputSchema = idParamsSchema.extend(staticTableChangesSchema.shape);

/** PUT /api/static-tables/{id}/upload: one CSV file in the multipart part `file`. */
export const csvUploadPartsSchema = z.object({
  file: z.file().mime('text/csv').max(STATIC_TABLE_LIMITS.uploadMaxBytes),
});

/** A row as the static table calls answer it: `_row_id` and column keys to values. */
const staticRowSchema = z.record(z.string(), z.unknown());

/** A table with its columns (and, where asked, every row). */
export const staticTableSchema = z.object({
  id: z.string(),
  name: z.string(),
  modifiedAt: z.string(),
  rowCount: z.number(),
  columns: z.array(staticColumnSchema),
  rows: z.array(staticRowSchema).optional(),
  /** The copy an import or a type change kept for Undo (see csvImportAnswerSchema), or null. */
  keptToken: z.string().nullable().optional(),
});
export const staticRowsSchema = z.array(staticRowSchema);
export const staticTableRenamedSchema = z.object({ id: z.string(), name: z.string() });
/** What the editor's changes leave: the columns and the row count, and the ids of rows they added, in order. */
export const staticTableChangedSchema = z.object({
  columns: z.array(staticColumnSchema),
  rowCount: z.number(),
  addedRowIds: z.array(z.number()),
});

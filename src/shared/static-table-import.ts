/**
 * Importing a CSV file into a static table that already has data: the choices (Replace, Append,
 * New table), the preview of the file's first rows and detected types, and the Undo of an import.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { COLUMN_TYPES } from './tables';

/**
 * Replace: the file's rows and columns become the table's (columns whose name matches keep their
 * key). Append: the file's rows are added below, columns matched by name (case and surrounding
 * spaces ignored), the others added. New: a new table is made from the file.
 */
export const IMPORT_MODES = ['Replace', 'Append', 'New'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const IMPORT_PREVIEW = {
  /** The head of the file the preview reads (the client sends at most this much). */
  headBytes: 256 * 1024,
  /** Rows the preview shows. */
  rows: 20,
} as const;

/**
 * A name the client picks for one import (`progress=` on the upload), under which it reads how far
 * the server has got (staticTables.importProgress) while the file is imported.
 */
export const importProgressTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Not a progress token.');

/** PUT /api/static-tables/{id}/upload?mode=...: how the file is imported (Replace by default, as the spec's call). */
export const importModeQuerySchema = z.object({
  mode: z.enum(['Replace', 'Append']).default('Replace'),
  progress: importProgressTokenSchema.optional(),
});

/** POST /api/static-tables/upload?name=...: the new table's name (default: the file's name). */
export const importNewQuerySchema = z.object({
  name: z.string().trim().max(200).optional(),
  progress: importProgressTokenSchema.optional(),
});

/**
 * The steps of an import after the upload, in order: DuckDB reads the file, its columns are checked
 * (dates, kept types), the rows are written into the warehouse, and the table is saved (swapped in
 * and made durable).
 */
export const IMPORT_STAGES = ['Reading', 'Checking', 'Writing', 'Saving', 'Done'] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];

export const importProgressInputSchema = z.object({ token: importProgressTokenSchema });

/** How far an import has got: `fraction` of the whole work (0..1, never going back). */
export const importProgressSchema = z.object({
  stage: z.enum(IMPORT_STAGES),
  fraction: z.number().min(0).max(1),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

/**
 * staticTables.importPreview: the head of the file as text (at most IMPORT_PREVIEW.headBytes, cut
 * anywhere: the server drops a last record that may be cut), and whether the file goes on after it.
 */
export const importPreviewInputSchema = z.object({
  id: idSchema,
  head: z.string().max(IMPORT_PREVIEW.headBytes * 2),
  truncated: z.boolean().default(false),
});
export type ImportPreviewInput = z.output<typeof importPreviewInputSchema>;

const columnRefSchema = z.object({ columnKey: z.string(), displayName: z.string() });

/** What a file would do to the table, for each choice, read from the file's first rows. */
export const importPreviewSchema = z.object({
  /** The file's columns as its header names them, with the type detected in the rows read. */
  columns: z.array(z.object({ name: z.string(), type: z.enum(COLUMN_TYPES) })),
  /** The first rows, values in column order. */
  rows: z.array(z.array(z.unknown())),
  /** The file has more rows than those read. */
  more: z.boolean(),
  /** The table holds a value somewhere: importing asks Replace, Append or New table. */
  tableHasData: z.boolean(),
  /** Append: each file column and the table column it fills (null: a column that will be added). */
  mapping: z.array(z.object({ name: z.string(), type: z.enum(COLUMN_TYPES), column: columnRefSchema.nullable() })),
  /** Append: table columns no file column fills (their cells of the new rows stay empty). */
  unfilled: z.array(columnRefSchema),
  /** Append refused ahead, e.g. past the column limit; null when it can go. */
  appendProblem: z.string().nullable(),
  /** Replace: table columns no file column matches (they go). */
  removed: z.array(columnRefSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** Undo (and redo) of an import or a type change: exchanges the table with the copy it kept. */
export const restoreKeptSchema = z.object({ token: z.string().min(1).max(100) });
export const restoreKeptInputSchema = restoreKeptSchema.extend({ id: idSchema });
export const restoredSchema = z.object({ keptToken: z.string(), rowCount: z.number() });

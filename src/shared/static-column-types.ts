/**
 * Changing a static-table column's type: the types offered, the preview of what would not convert,
 * and the change itself (values that do not convert become empty only when the caller says so).
 */
import { z } from 'zod';
import { idSchema } from './accounts';

/** The types a static-table column can be changed to. */
export const STATIC_COLUMN_TYPES = ['Text', 'Number', 'Boolean', 'Date', 'DateTime'] as const;
export type StaticColumnType = (typeof STATIC_COLUMN_TYPES)[number];

/** Labels shown for a type (header, column settings). */
export const COLUMN_TYPE_LABELS: Record<string, string> = {
  Text: 'Text',
  Number: 'Number',
  Boolean: 'Boolean',
  Date: 'Date',
  DateTime: 'Date and time',
  Array: 'List',
  Json: 'JSON',
};

/** Examples of values that would not convert, shown before confirming. */
export const TYPE_CHANGE_EXAMPLES = 5;

export const columnTypeChangeSchema = z.object({
  type: z.enum(STATIC_COLUMN_TYPES),
  /** Values that do not convert become empty: only after the user confirmed it (the preview counts them). */
  clearUnconvertible: z.boolean().default(false),
});
const columnInTable = z.object({ id: idSchema, columnKey: z.string().min(1).max(100) });
export const columnTypePreviewInputSchema = columnInTable.extend({ type: z.enum(STATIC_COLUMN_TYPES) });
export const columnTypeChangeInputSchema = columnInTable.extend(columnTypeChangeSchema.shape);
export const columnTypePreviewQuerySchema = z.object({ type: z.enum(STATIC_COLUMN_TYPES) });
export const columnKeyParamsSchema = z.object({ id: idSchema, columnKey: z.string().min(1).max(100) });

/** What a type change would do: values with content, how many would not convert, a few of them. */
export const columnTypePreviewSchema = z.object({
  values: z.number(),
  unconvertible: z.number(),
  examples: z.array(z.string()),
});
export type ColumnTypePreview = z.infer<typeof columnTypePreviewSchema>;

export const columnTypeChangedSchema = z.object({
  /** Undo restores the table as it was before the change (see static-table-import.ts). */
  keptToken: z.string(),
  cleared: z.number(),
});

/** The message when values would be lost and the caller did not confirm it. */
export function unconvertibleMessage(count: number, type: string): string {
  return `${count} value${count === 1 ? '' : 's'} cannot be read as ${COLUMN_TYPE_LABELS[type] ?? type} and would become empty: confirm the change to go ahead.`;
}

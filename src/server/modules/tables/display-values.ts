import type { Column, ColumnType } from '../../../shared/tables';
import { numberText as sharedNumberText, plainNumber } from '../../../shared/number-text';

/**
 * Cells as the text the grid shows, for callers that ask for `forDisplay`: dates and times stay
 * their ISO text, numbers their plain decimal text (no exponent, no grouping: the server knows no locale),
 * booleans `true`/`false`, arrays their items joined by `, `, JSON its minified text, and empty
 * cells null. The row key (and any key that is not a column) is passed through untouched.
 */
export function displayValue(value: unknown, type: ColumnType): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'Array' && Array.isArray(value)) return value.map(arrayItemText).join(', ');
  // JSON cells arrive parsed, so a JSON string value shows with its quotes, as its JSON text does.
  if (type === 'Json') return JSON.stringify(value);
  return scalarText(value);
}

/** Every column cell of each row as display text; other keys (the row key) as they were. */
export function toDisplayRows(rows: readonly Record<string, unknown>[], columns: Column[]): Record<string, unknown>[] {
  const types = new Map(columns.map((c) => [c.columnKey, c.type]));
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => {
        const type = types.get(key);
        return [key, type === undefined ? value : displayValue(value, type)];
      }),
    ),
  );
}

function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return plainNumber(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** Items of an array: nested nulls as `null`, nested arrays and objects as JSON. */
function arrayItemText(item: unknown): string {
  return item === null || item === undefined ? 'null' : scalarText(item);
}

/** An unformatted number as the grid's text in en-US (shared/number-text.ts): grouped, every digit. */
export const numberText = (value: number): string => sharedNumberText(value, 'en-US');

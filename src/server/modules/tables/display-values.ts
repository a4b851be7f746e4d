import type { Column, ColumnType } from '../../../shared/tables';

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

/**
 * A number's shortest exact digits (those of `String(n)`) as plain decimal text, never in exponent
 * form: 1e-7 reads `0.0000001` and 1e21 `1000000000000000000000`, as the grid writes them.
 */
export function plainNumber(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, first, rest = '', exponent] = match;
  const digits = `${first}${rest}`;
  // The decimal point sits after `point` digits (negative: that many zeros before the digits).
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits}${'0'.repeat(Math.max(0, point - digits.length))}`;
}

/** Items of an array: nested nulls as `null`, nested arrays and objects as JSON. */
function arrayItemText(item: unknown): string {
  return item === null || item === undefined ? 'null' : scalarText(item);
}

/**
 * An unformatted number as the grid's en-US text (thousands grouped), never losing a digit: when the
 * grouped text does not read back as the same number (1e-300 would be `0`, 0.1 + 0.2 rounded), the
 * number's own shortest text, `String(n)`, which always does. -0 is 0, as the data call answers it.
 */
export function numberText(value: number): string {
  if (value === 0) return '0';
  const grouped = value.toLocaleString('en-US', { maximumFractionDigits: 20 });
  return Number(grouped.replaceAll(',', '')) === value ? grouped : String(value);
}

/**
 * How a pivot value cell reads, by its field's one rule: the pivot grid shows it, and a PDF report
 * writes the same text.
 */
import { formatNumber } from './number-format';
import type { PivotCellValue, PivotLayoutColumn, PivotValueHeader } from './pivots';

const fixedFormats = new Map<number, Intl.NumberFormat>();

/** The locale's number format with exactly `decimals` decimals (cached: the grid formats many cells). */
function fixed(decimals: number): Intl.NumberFormat {
  let format = fixedFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    fixedFormats.set(decimals, format);
  }
  return format;
}

/** How a value field's numbers read (the server decides it per field: layout `values`). */
export type PivotValueLook = Pick<PivotValueHeader, 'percent' | 'decimals' | 'format'>;

/**
 * A value cell as text, by its field's one rule, so a column and its totals never mix decimals:
 * percentages as "12.50%", other numbers with the field's decimals and its column's format
 * (prefix, suffix, separators). Text (a number too large for a double, a date of Min or Max)
 * shows as it is.
 */
export function formatPivotValue(value: PivotCellValue, look: PivotValueLook | undefined): string {
  if (value === null) return '';
  if (typeof value !== 'number') return String(value);
  const decimals = look?.decimals ?? 2;
  if (look?.percent) return `${fixed(decimals).format(value * 100)}%`;
  if (look?.format) return formatNumber(value, { ...look.format, decimalPlaces: decimals });
  return fixed(decimals).format(value);
}

/** The value header a layout column's cells follow (none for row fields). */
export function valueLook(values: readonly PivotValueHeader[], column: PivotLayoutColumn): PivotValueLook | undefined {
  return column.valueIndex === null ? undefined : values[column.valueIndex];
}

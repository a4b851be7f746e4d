import type { ColumnFormat } from '../../../shared/models';
import { formatNumber } from '../../../shared/number-format';
import { numberText } from '../../../shared/number-text';
import type { ColumnType } from '../../../shared/tables';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** How a cell shows its value; the raw value stays available to edit and inspect. */
export function formatCell(value: unknown, type: ColumnType, format?: ColumnFormat | null): string {
  if (value === null || value === undefined) return '';
  if (format && typeof value === 'number') return formatNumber(value, format);
  if (type === 'DateTime' && typeof value === 'string') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
  }
  if (type === 'Number' && typeof value === 'number') return numberText(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Only text or empty cells are edited in place (spec: static table validation). */
export function isEditableValue(value: unknown, type: ColumnType): boolean {
  return type === 'Text' || value === null || value === undefined || value === '';
}

/** Cells worth opening in the 'Inspect Value' dialog. */
export function isInspectable(value: unknown): boolean {
  return value !== null && typeof value === 'object';
}

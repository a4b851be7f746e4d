/** The pivot query's rows as the API returns them: cells by layout column key, with their level. */
import type { PivotCellValue, PivotLayout, PivotRow } from '../../shared/pivots';
import type { ResultRow } from '../sql';
import { LEVEL_ALIAS } from './grouped-query';

export function shapePivotRows(layout: PivotLayout, rows: readonly ResultRow[]): PivotRow[] {
  const detail = layout.rowFields.length;
  return rows.map((row) => {
    const cells: Record<string, PivotCellValue> = {};
    for (const column of layout.columns) cells[column.key] = toCell(row[column.key]);
    // `_level` has a bit set for each row field the row is a total over (GROUPING of the row fields).
    const level = detail - countBits(Number(row[LEVEL_ALIAS] ?? 0));
    return { cells, level, isTotal: level < detail };
  });
}

function countBits(mask: number): number {
  let count = 0;
  for (let rest = mask; rest > 0; rest = Math.floor(rest / 2)) count += rest % 2;
  return count;
}

/** Runners hand JSON-safe values; this only settles what may remain (bigint, Date) into JSON. */
function toCell(value: unknown): PivotCellValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    default:
      return value instanceof Date ? value.toISOString() : String(value);
  }
}

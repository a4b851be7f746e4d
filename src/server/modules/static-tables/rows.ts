import type { SqlValue } from '../../../engine';
import type { Column } from '../../../shared/tables';
import type { WarehouseSession } from '../../warehouse/types';
import { ROW_ID, q } from './physical';

type Cell = string | number | boolean | null;
type InputRow = Record<string, Cell> | Cell[];

/** Rows per INSERT: enough to be fast, few enough parameters per statement. */
const BATCH_ROWS = 500;

/**
 * A row as values in column order; object rows are keyed by columnKey (or by display name). Only the
 * row's own keys count, so a column named like an Object member ("constructor") reads as blank.
 */
export function rowValues(row: InputRow, columns: Column[]): SqlValue[] {
  if (Array.isArray(row)) return columns.map((_, i) => row[i] ?? null);
  const own = (key: string) => (Object.hasOwn(row, key) ? row[key] : undefined);
  return columns.map((c) => own(c.columnKey) ?? own(c.displayName) ?? null);
}

/**
 * Inserts rows with bound parameters, numbering them from `firstRowId`; values are cast by DuckDB
 * to each column's type, so a bad value fails the whole write.
 */
export async function insertRows(
  session: WarehouseSession,
  table: string,
  columns: Column[],
  rows: InputRow[],
  firstRowId: number,
): Promise<void> {
  const names = [ROW_ID, ...columns.map((c) => c.columnKey)].map(q).join(', ');
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    const batch = rows.slice(start, start + BATCH_ROWS);
    const parameters: SqlValue[] = [];
    const tuples = batch.map((row, i) => {
      const values = [firstRowId + start + i, ...rowValues(row, columns)];
      const marks = values.map((v) => {
        parameters.push(v);
        return `$${parameters.length}`;
      });
      return `(${marks.join(', ')})`;
    });
    await session.run(`INSERT INTO ${table} (${names}) VALUES ${tuples.join(', ')}`, parameters);
  }
}

/** `CREATE TABLE` for a table of text columns plus the row id. */
export function createTableSql(table: string, columns: Column[]): string {
  const defs = [`${q(ROW_ID)} BIGINT NOT NULL`, ...columns.map((c) => `${q(c.columnKey)} VARCHAR`)];
  return `CREATE TABLE ${table} (${defs.join(', ')})`;
}

import type { SqlValue } from '../../../engine';
import type { Column } from '../../../shared/tables';
import type { WarehouseSession } from '../../warehouse/types';
import { badInput } from '../../errors';
import { parameterTypes } from '../../warehouse/bind-parameters';
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
 * Refuses rows with cells no column would receive (a misspelt key, or more cells than columns), which
 * would otherwise be dropped without a word. `_row_id`, which the API answers with every row, is
 * allowed so rows read from the API can be written back.
 */
export function checkRowCells(rows: InputRow[], columns: Column[]): void {
  const names = new Set([ROW_ID, ...columns.flatMap((c) => [c.columnKey, c.displayName])]);
  rows.forEach((row, i) => {
    if (Array.isArray(row)) {
      if (row.length > columns.length) {
        throw badInput(`Row ${i + 1} has ${row.length} cells, but the table has ${columns.length} column(s).`);
      }
      return;
    }
    const unknown = Object.keys(row).find((key) => !names.has(key));
    if (unknown !== undefined) {
      throw badInput(`Row ${i + 1} has a value for "${unknown}", which is not a column key or name of the table.`);
    }
  });
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
  checkRowCells(rows, columns);
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

/**
 * Moves row `rowId` to the place of row `toRowId` (rows are read in `_row_id` order) in one UPDATE:
 * it takes that id, and the rows between shift one id toward the place it left. Ids stay unique, so
 * paging by `_row_id` stays exact, and moving `toRowId` back to `rowId` undoes it.
 */
export async function moveRow(session: WarehouseSession, table: string, rowId: number, toRowId: number) {
  const id = q(ROW_ID);
  const [found] = await session.all({
    sql: `SELECT count(*)::INTEGER AS n FROM ${table} WHERE ${id} = $1`,
    parameters: [rowId],
  });
  if (!Number(found?.n)) throw badInput(`Row ${rowId} does not exist.`);
  if (rowId === toRowId) return;
  await session.run(
    `UPDATE ${table} SET ${id} = CASE WHEN ${id} = $1::BIGINT THEN $2::BIGINT ` +
      `WHEN $1::BIGINT > $2::BIGINT THEN ${id} + 1 ELSE ${id} - 1 END ` +
      `WHERE ${id} BETWEEN least($1::BIGINT, $2::BIGINT) AND greatest($1::BIGINT, $2::BIGINT)`,
    [rowId, toRowId],
  );
}

type CellWrite = { rowId: number; columnKey: string; value: Cell };

/** Cells per UPDATE: two parameters each. */
const BATCH_CELLS = 500;

/**
 * Writes cells by row id and column key: a few set-based UPDATEs per column instead of one per
 * cell (a paste of thousands of cells), with the same result as writing them one by one in order
 * (the last write to a cell wins; an unknown row id changes nothing). Values bound as the same
 * DuckDB type share a statement, so each is cast to the column's type exactly as a single UPDATE
 * would cast it.
 */
export async function updateCells(session: WarehouseSession, table: string, edits: CellWrite[]): Promise<void> {
  const last = new Map<string, CellWrite>();
  for (const edit of edits) {
    const key = `${edit.columnKey}\u0000${edit.rowId}`;
    last.delete(key);
    last.set(key, edit);
  }
  const groups = new Map<string, CellWrite[]>();
  for (const edit of last.values()) {
    const kind = edit.value === null ? 'null' : String(parameterTypes([edit.value])[0]);
    const key = `${edit.columnKey}\u0000${kind}`;
    groups.set(key, [...(groups.get(key) ?? []), edit]);
  }
  const id = q(ROW_ID);
  for (const group of groups.values()) {
    const column = q(group[0]!.columnKey);
    for (let start = 0; start < group.length; start += BATCH_CELLS) {
      const batch = group.slice(start, start + BATCH_CELLS);
      if (batch[0]!.value === null) {
        await session.run(`UPDATE ${table} SET ${column} = NULL WHERE ${id} IN (SELECT unnest($1::BIGINT[]))`, [
          JSON.stringify(batch.map((e) => e.rowId)),
        ]);
        continue;
      }
      const parameters: SqlValue[] = [];
      const tuples = batch.map((e) => {
        parameters.push(e.rowId, e.value);
        return `($${parameters.length - 1}::BIGINT, $${parameters.length})`;
      });
      await session.run(
        `UPDATE ${table} SET ${column} = v.value FROM (VALUES ${tuples.join(', ')}) v(row_id, value) WHERE ${table}.${id} = v.row_id`,
        parameters,
      );
    }
  }
}

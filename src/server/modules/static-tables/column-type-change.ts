/**
 * Changing a static-table column's type (Text, Number, Boolean, Date, DateTime). The preview counts
 * the values with content that would not convert and shows a few; the change itself empties them
 * only when the caller confirms it (`clearUnconvertible`), and keeps the table as it was for Undo
 * (kept-copy.ts). The caller holds the table's exclusive lock for the change.
 */
import {
  TYPE_CHANGE_EXAMPLES,
  unconvertibleMessage,
  type ColumnTypePreview,
  type StaticColumnType,
} from '../../../shared/static-column-types';
import type { ColumnType } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { badInput } from '../../errors';
import { numberStats } from '../../warehouse/csv-numbers';
import type { WarehouseSession } from '../../warehouse/types';
import { TABLE_SAVED } from './durable-writes';
import { newKeptToken, swapKeeping } from './kept-copy';
import { ROW_ID, STATIC_SCHEMA, q, qualified, warehouseTableName } from './physical';
import { findTable, listColumns, type StaticColumn } from './repo';
import { warehouseError } from './warehouse-errors';

/**
 * How each type is stored (numbers as DOUBLE: typed or pasted numbers have any number of decimals;
 * text whose numbers a double would change becomes an exact DECIMAL instead, see numberTarget).
 */
const SQL_TYPE: Record<StaticColumnType, string> = {
  Text: 'VARCHAR',
  Number: 'DOUBLE',
  Boolean: 'BOOLEAN',
  Date: 'DATE',
  DateTime: 'TIMESTAMP',
};

const isTemporal = (type: ColumnType) => type === 'Date' || type === 'DateTime';

/** The value as text, blank text read as no value. */
const content = (column: string) => `NULLIF(trim(CAST(${column} AS VARCHAR)), '')`;

/**
 * How text becomes Number without changing a value: DOUBLE when a double gives every number back
 * as written; else DECIMAL(18|38, s) when that holds them all; else DOUBLE, the numbers it would
 * change counting as unconvertible (emptied only when the user confirms). An import decides the
 * same way (csv-numbers.ts).
 */
interface NumberTarget {
  type: string;
  /** SQL: the text is a number the type holds unchanged; null when all are. */
  keeps: ((text: string) => string) | null;
}

async function numberTarget(session: WarehouseSession, id: string, key: string): Promise<NumberTarget> {
  const stats = await numberStats(session, qualified(id), content(key));
  if (stats.changed === 0) return { type: 'DOUBLE', keeps: null };
  if (stats.decimal) return { type: stats.decimal, keeps: null };
  return { type: 'DOUBLE', keeps: stats.keeps };
}

/**
 * SQL converting the column from its type to `to`: anything reads as text; dates and date-times
 * convert into each other; true and false become 1 and 0; otherwise the text is read as the new
 * type (ISO dates, numbers with a point, true/false), NULL when it cannot be (or, for numbers,
 * when `number` would change it).
 */
export function conversion(
  column: string,
  from: ColumnType,
  to: StaticColumnType,
  number: NumberTarget = { type: SQL_TYPE.Number, keeps: null },
): string {
  if (to === 'Text') return `CAST(${column} AS VARCHAR)`;
  // A date and time other than midnight is not a date: it does not convert, as its text would not.
  if (from === 'DateTime' && to === 'Date') {
    return `CASE WHEN ${column} = date_trunc('day', ${column}) THEN CAST(${column} AS DATE) END`;
  }
  if (isTemporal(from) && isTemporal(to)) return `CAST(${column} AS ${SQL_TYPE[to]})`;
  if (from === 'Boolean' && to === 'Number') return `CAST(CAST(${column} AS INTEGER) AS DOUBLE)`;
  // Text is read as an instant (an offset applied; none read as UTC, the warehouse's zone): DuckDB's
  // cast to TIMESTAMP drops an offset and digits past microseconds, and to DATE a time of day. A
  // time of day is not a date: text with one other than midnight UTC does not convert to Date.
  const instant = `TRY_CAST(${content(column)} AS TIMESTAMPTZ)`;
  // Digits after the second beyond microseconds would be cut: such text does not convert.
  if (to === 'DateTime') {
    return `CASE WHEN NOT regexp_matches(${content(column)}, '\\.[0-9]{6}[0-9]*[1-9]') THEN CAST(${instant} AS TIMESTAMP) END`;
  }
  if (to === 'Date') {
    const date = `TRY_CAST(${content(column)} AS DATE)`;
    return `CASE WHEN ${instant} IS NOT DISTINCT FROM CAST(${date} AS TIMESTAMPTZ) THEN ${date} END`;
  }
  if (to !== 'Number') return `TRY_CAST(${content(column)} AS ${SQL_TYPE[to]})`;
  const read = `TRY_CAST(${content(column)} AS ${number.type})`;
  return number.keeps ? `CASE WHEN ${number.keeps(content(column))} THEN ${read} END` : read;
}

/** The Number target of a column whose values are read as text (not a Boolean's 1 and 0). */
const targetOf = (session: WarehouseSession, id: string, column: StaticColumn, to: StaticColumnType) =>
  to === 'Number' && column.type !== 'Boolean' && column.type !== 'Number'
    ? numberTarget(session, id, q(column.columnKey))
    : undefined;

function columnOf(columns: StaticColumn[], columnKey: string): StaticColumn {
  const column = columns.find((c) => c.columnKey === columnKey);
  if (!column) throw badInput(`Unknown column "${columnKey}".`);
  return column;
}

async function count(
  session: WarehouseSession,
  id: string,
  column: StaticColumn,
  to: StaticColumnType,
  number?: NumberTarget,
): Promise<ColumnTypePreview> {
  const key = q(column.columnKey);
  const lost = `${content(key)} IS NOT NULL AND (${conversion(key, column.type, to, number)}) IS NULL`;
  const [counted] = await session.all({
    sql:
      `SELECT count(*) FILTER (WHERE ${content(key)} IS NOT NULL)::DOUBLE AS n, ` +
      `count(*) FILTER (WHERE ${lost})::DOUBLE AS lost FROM ${qualified(id)}`,
    parameters: [],
  });
  const unconvertible = Number(counted?.lost ?? 0);
  const examples =
    unconvertible === 0
      ? []
      : await session.all({
          sql:
            `SELECT v FROM (SELECT CAST(${key} AS VARCHAR) AS v, min(${q(ROW_ID)}) AS first FROM ${qualified(id)} ` +
            `WHERE ${lost} GROUP BY 1) ORDER BY first LIMIT ${TYPE_CHANGE_EXAMPLES}`,
          parameters: [],
        });
  return { values: Number(counted?.n ?? 0), unconvertible, examples: examples.map((r) => String(r.v)) };
}

export async function previewTypeChange(
  deps: Deps,
  ctx: AccountContext,
  id: string,
  columnKey: string,
  to: StaticColumnType,
): Promise<ColumnTypePreview> {
  const column = columnOf(await listColumns(deps.db, id), columnKey);
  if (column.type === to) return { values: 0, unconvertible: 0, examples: [] };
  const warehouse = deps.warehouse.forAccount(ctx.accountId);
  return count(warehouse, id, column, to, await targetOf(warehouse, id, column, to));
}

export async function changeColumnType(
  deps: Deps,
  ctx: AccountContext,
  id: string,
  columnKey: string,
  to: StaticColumnType,
  clearUnconvertible: boolean,
): Promise<{ keptToken: string; cleared: number }> {
  const warehouse = deps.warehouse.forAccount(ctx.accountId);
  const columns = await listColumns(deps.db, id);
  const column = columnOf(columns, columnKey);
  if (column.type === to) throw badInput(`The column "${column.displayName}" is already ${to}.`);
  const number = await targetOf(warehouse, id, column, to);
  const { unconvertible } = await count(warehouse, id, column, to, number);
  if (unconvertible > 0 && !clearUnconvertible) throw badInput(unconvertibleMessage(unconvertible, to));
  const before = await findTable(deps.db, ctx.accountId, id);
  const next = `${warehouseTableName(id)}__next`;
  const staged = `${q(STATIC_SCHEMA)}.${q(next)}`;
  const key = q(column.columnKey);
  try {
    await warehouse.transaction(async (tx) => {
      await tx.run(`DROP TABLE IF EXISTS ${staged}`);
      await tx.run(
        `CREATE TABLE ${staged} AS SELECT * REPLACE (${conversion(key, column.type, to, number)} AS ${key}) ` +
          `FROM ${qualified(id)} ORDER BY ${q(ROW_ID)}`,
      );
    });
  } catch (error) {
    await warehouse.run(`DROP TABLE IF EXISTS ${staged}`).catch(() => undefined);
    throw warehouseError(error);
  }
  const changed = columns.map((c): StaticColumn => {
    if (c.columnKey !== columnKey) return c;
    // A number format means nothing to another type.
    const { format, ...rest } = c;
    return { ...rest, type: to, ...(to === 'Number' && format ? { format } : {}) };
  });
  const token = newKeptToken();
  await deps.writes
    .write(ctx.accountId, TABLE_SAVED, (mark) =>
      swapKeeping(warehouse, id, next, (tx) =>
        mark(tx, {
          tableId: id,
          accountId: ctx.accountId,
          name: null,
          columns: changed,
          rowCount: before?.row_count ?? 0,
          at: deps.clock().toISOString(),
          kept: { token, columns, rowCount: before?.row_count ?? 0 },
        }),
      ),
    )
    .catch((error: unknown) => {
      throw warehouseError(error);
    });
  return { keptToken: token, cleared: unconvertible };
}

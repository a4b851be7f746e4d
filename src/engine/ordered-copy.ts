/**
 * Ordered copies: a relation's rows that match a request's filters, stored once in the request's
 * total order and numbered 1..n by a position column. Any page of that request is then a range of
 * positions, which DuckDB answers from the copy's zonemaps in a few milliseconds at any depth, where
 * plain SQL must sort every row before the page (~1.5 s at row 5M of 10M). The server decides when a
 * copy is worth making, names it and keeps it (src/server/warehouse/ordered-copies.ts); the engine
 * only writes the statements:
 *
 * - `compileOrderedCopy(query)`: `SELECT row_number() OVER (ORDER BY <sort>, <row key>) AS "_pos",
 *   <columns> FROM <relation> WHERE <filters> ORDER BY "_pos"`, the body of a `CREATE TABLE .. AS`.
 *   The order is the page query's own (`compileOrderBy`), so positions number rows exactly as
 *   OFFSET would; the outer ORDER BY stores rows by position, which keeps each zonemap range tight.
 * - `compileCopyPage(copy, page)`: `SELECT <columns> FROM <copy> WHERE "_pos" BETWEEN $1 AND $2
 *   ORDER BY "_pos"`, the same rows as `compilePageQuery` for the query the copy was made from.
 *
 * The count of matching rows is the copy's row count; the server keeps it with the copy.
 */
import { ColumnScope } from './columns';
import { checkIdentifier } from './dialect';
import { duckdbDialect } from './dialects/duckdb';
import { ModelError } from './errors';
import { compileFilterGroups } from './filters/compile-groups';
import type { PageSpec, TableQuery } from './ir';
import { relationSource } from './relation-source';
import { renderSelect } from './render';
import type { SelectStatement } from './sql-ast';
import type { CompiledQuery } from './sql';
import { compileOrderBy } from './sorting';
import type { CompileOptions } from './table-query';

/** The position column's name, unless a selected column already has it (then `_pos_1`, `_pos_2`, ...). */
export const COPY_POSITION = '_pos';

/** What a page needs to know of a copy: its columns (named as in the query) and its position column. */
export interface OrderedCopyShape {
  columns: readonly string[];
  position: string;
}

export interface OrderedCopy extends OrderedCopyShape {
  /** The SELECT a copy is created from; the caller prefixes `CREATE TABLE <name> AS`. */
  select: CompiledQuery;
}

/** Where a copy is stored: `"<schema>"."<name>"` (DuckDB also reads the first part as an attached database). */
export interface CopyLocation {
  schema: string;
  name: string;
}

const columnItems = (names: readonly string[]): SelectStatement['items'] =>
  names.map((name) => ({ expr: { kind: 'column', name }, alias: null }));

function freePositionName(selected: readonly string[]): string {
  const taken = new Set(selected);
  let name = COPY_POSITION;
  for (let i = 1; taken.has(name); i += 1) name = `${COPY_POSITION}_${i}`;
  return name;
}

/** The copy of `query`'s matching rows in its order; `query.page` plays no part. */
export function compileOrderedCopy(query: TableQuery, options: CompileOptions = {}): OrderedCopy {
  const dialect = options.dialect ?? duckdbDialect;
  const scope = new ColumnScope(query);
  const keys = query.select.length > 0 ? query.select : scope.all.map((column) => column.columnKey);
  // The same selection as a page query: unknown keys refused, repeats dropped.
  const columns = [...new Set(keys.map((key, index) => scope.resolveName(key, ['select', index])))];
  const position = freePositionName(columns);
  const orderBy = compileOrderBy(query.sorting, columns, scope);
  const statement: SelectStatement = {
    kind: 'select',
    items: [{ expr: { kind: 'row-number', orderBy }, alias: position }, ...columnItems(columns)],
    from: relationSource(query.source),
    where: compileFilterGroups(query.filterGroups, scope),
    orderBy: [{ expr: { kind: 'column', name: position }, order: 'asc' }],
    limit: null,
    offset: null,
  };
  return { select: renderSelect(statement, dialect), columns, position };
}

/** Positions `first..last` of a 1-based page, with the page checks of `compilePageQuery`. */
export function pagePositions(page: PageSpec): { first: number; last: number } {
  const { page: number, pageSize } = page;
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new ModelError(`Page must be a whole number from 1, got ${number}`, 'invalid_page', ['page', 'page']);
  }
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new ModelError(`Page size must be a whole number from 1, got ${pageSize}`, 'invalid_page', [
      'page',
      'pageSize',
    ]);
  }
  const last = number * pageSize;
  if (!Number.isSafeInteger(last))
    throw new ModelError(`Page ${number} is beyond any table`, 'invalid_page', ['page', 'page']);
  return { first: last - pageSize + 1, last };
}

/** One page read from a copy: its rows in position order, the copy's columns named as in the query. */
export function compileCopyPage(
  location: CopyLocation,
  shape: OrderedCopyShape,
  page: PageSpec,
  options: CompileOptions = {},
): CompiledQuery {
  const dialect = options.dialect ?? duckdbDialect;
  checkIdentifier(location.schema, ['source', 'schema']);
  checkIdentifier(location.name, ['source', 'name']);
  const { first, last } = pagePositions(page);
  const position = { kind: 'column', name: shape.position } as const;
  const statement: SelectStatement = {
    kind: 'select',
    items: columnItems(shape.columns),
    from: { kind: 'table', schema: location.schema, name: location.name },
    where: {
      kind: 'between',
      expr: position,
      low: { kind: 'param', value: first, type: 'bigint' },
      high: { kind: 'param', value: last, type: 'bigint' },
    },
    orderBy: [{ expr: position, order: 'asc' }],
    limit: null,
    offset: null,
  };
  return renderSelect(statement, dialect);
}

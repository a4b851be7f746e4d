/**
 * A plain-data query (plain-query.ts) as the engine's statements: a summary (measures, groups) is a
 * pivot without totals (src/engine/pivot), whose page is the top N; rows without measures are a
 * table page query with its count. Every value stays a bound parameter and every name goes through
 * the dialect's quoting: nothing of the question becomes SQL text here.
 */
import {
  compileCountQuery,
  compilePageQuery,
  compilePivotQuery,
  renderForDisplay,
  shapePivotRows,
  type CompiledQuery,
  type Relation,
  type RelationColumn,
  type ResultRow,
  type SelectStatement,
  type TableQuery,
} from '../../../engine';
import type { PivotSpec } from '../../../engine';
import { AGGREGATION_LABELS, PIVOT_TIME_GRAIN_LABELS, type PivotLayout } from '../../../shared/pivots';
import type { PlainQuery } from './plain-query';

/** Where a query reads: the table's relation and columns as the tables service resolves them. */
export interface QueryTarget {
  source: Relation;
  columns: readonly RelationColumn[];
  rowKey: string | null;
}

export type CompiledQuestion =
  | {
      kind: 'summary';
      statement: CompiledQuery;
      layout: PivotLayout;
      headers: string[];
      /** Rows of the statement in order of `headers`. */
      read: (rows: readonly ResultRow[]) => unknown[][];
    }
  | {
      kind: 'rows';
      statement: CompiledQuery;
      count: CompiledQuery;
      headers: string[];
      read: (rows: readonly ResultRow[]) => unknown[][];
    };

/** The column counted for "how many rows" when a table has no row key: a constant 1 beside its columns. */
const ROWS_COLUMN = '_rows';

function displayName(target: QueryTarget, key: string): string {
  return target.columns.find((c) => c.columnKey === key)?.displayName ?? key;
}

/** 'Count of orders', 'Sum of amount', 'Count unique of city'. */
export function measureLabel(
  query: Pick<PlainQuery, 'table'>,
  m: PlainQuery['measures'][number],
  name: (key: string) => string,
) {
  if (m.column === null) return `Count of ${query.table.name}`;
  return `${AGGREGATION_LABELS[m.function]} of ${name(m.column)}`;
}

export function groupLabel(g: PlainQuery['groupBy'][number], name: (key: string) => string): string {
  return g.grain ? `${PIVOT_TIME_GRAIN_LABELS[g.grain]} of ${name(g.column)}` : name(g.column);
}

/** The relation with a constant column to count rows by, for relations without a row key. */
function withRowsColumn(target: QueryTarget): { source: Relation; columns: RelationColumn[]; countKey: string } {
  let countKey = ROWS_COLUMN;
  while (target.columns.some((c) => c.columnKey === countKey)) countKey = `_${countKey}`;
  const statement: SelectStatement = {
    kind: 'select',
    items: [
      ...target.columns.map((c) => ({ expr: { kind: 'column' as const, name: c.columnKey }, alias: c.columnKey })),
      { expr: { kind: 'constant', value: 1 }, alias: countKey },
    ],
    from:
      target.source.kind === 'table'
        ? { kind: 'table', schema: target.source.schema, name: target.source.name }
        : { kind: 'subquery', select: target.source.statement, alias: target.source.alias ?? 'model' },
    where: null,
    orderBy: [],
    limit: null,
    offset: null,
  };
  return {
    source: { kind: 'select', statement, alias: 'rows' },
    columns: [...target.columns, { columnKey: countKey, type: 'Number', sqlType: 'INTEGER' }],
    countKey,
  };
}

function summary(query: PlainQuery, target: QueryTarget, maxRows: number, page: number): CompiledQuestion {
  let source = target.source;
  let columns = [...target.columns];
  let countKey: string | null = null;
  if (query.measures.some((m) => m.column === null)) {
    if (target.rowKey) {
      countKey = target.rowKey;
      if (!columns.some((c) => c.columnKey === countKey)) columns.push({ columnKey: countKey, type: 'Number' });
    } else {
      const wrapped = withRowsColumn(target);
      ({ source, columns, countKey } = wrapped);
    }
  }
  const sort = query.sort;
  const rows: PivotSpec['rows'] = query.groupBy.map((g, i) => ({
    column: g.column,
    grain: g.grain,
    sort:
      i === 0 && sort?.by === 'measure'
        ? { direction: sort.direction, valueIndex: sort.index }
        : { direction: i === 0 && sort?.by === 'group' ? sort.direction : 'Ascending', valueIndex: null },
  }));
  const pivot: PivotSpec = {
    filters: query.filters.map((f) => ({ column: f.column, operator: f.operator, value: f.value, value2: f.value2 })),
    rows,
    columns: [],
    values: query.measures.map((m) => ({
      column: m.column ?? (countKey as string),
      function: m.function,
      showAs: 'Default',
    })),
    showRowTotals: false,
    showColumnTotals: false,
  };
  const offset = (page - 1) * maxRows;
  const limit = Math.max(0, Math.min(maxRows, (query.limit ?? Number.MAX_SAFE_INTEGER) - offset));
  const { compiled, layout } = compilePivotQuery({
    relation: source,
    columns,
    pivot,
    columnKeys: [],
    page: { offset, limit },
  });
  const name = (key: string) => displayName(target, key);
  const headers = [
    ...query.groupBy.map((g) => groupLabel(g, name)),
    ...query.measures.map((m) => measureLabel(query, m, name)),
  ];
  const keys = layout.columns.map((c) => c.key);
  return {
    kind: 'summary',
    statement: compiled,
    layout,
    headers,
    read: (result) => shapePivotRows(layout, [...result]).map((row) => keys.map((k) => row.cells[k] ?? null)),
  };
}

function rowsQuery(query: PlainQuery, target: QueryTarget, maxRows: number, page: number): CompiledQuestion {
  const select = query.select.length > 0 ? query.select : target.columns.map((c) => c.columnKey);
  const sorting =
    query.sort?.by === 'column' && query.sort.column
      ? [{ columnKey: query.sort.column, direction: query.sort.direction }]
      : [];
  // A limit smaller than a page is the page; else pages of maxRows, the last one cut by the caller.
  const pageSize = query.limit !== null && query.limit < maxRows ? query.limit : maxRows;
  const table: TableQuery = {
    source: target.source,
    columns: target.columns,
    rowKey: target.rowKey,
    select,
    filterGroups: query.filters.map((f) => ({
      filters: [{ columnKey: f.column, operator: f.operator, value: f.value, value2: f.value2 }],
    })),
    sorting,
    page: { page, pageSize },
  };
  return {
    kind: 'rows',
    statement: compilePageQuery(table),
    count: compileCountQuery(table),
    headers: select.map((key) => displayName(target, key)),
    read: (result) => result.map((row) => select.map((key) => row[key] ?? null)),
  };
}

/**
 * The statements of a query. `maxRows` bounds what one run reads (the chat shows the first 100;
 * the export reads more).
 */
export function compileQuestion(query: PlainQuery, target: QueryTarget, maxRows: number, page = 1): CompiledQuestion {
  return query.measures.length > 0 ? summary(query, target, maxRows, page) : rowsQuery(query, target, maxRows, page);
}

/** 'Show SQL': the statement that ran, its values written in as literals (the same rows). */
export function showSql(statement: CompiledQuery): string {
  return renderForDisplay(statement);
}

import {
  compileCountQuery,
  compileKeyBoundPage,
  compilePageQuery,
  isModelError,
  type CompiledQuery,
  type RelationColumn,
  type TableQuery,
} from '../../../engine';
import type { Column, Filter, FilterGroup, Sorting } from '../../../shared/tables';
import { badInput } from '../../errors';
import { relationSqlTypes } from '../../warehouse/relation-types';
import type { WarehouseExecutor } from '../../warehouse/types';
import { ROW_ID, STATIC_SCHEMA, warehouseTableName } from '../static-tables/physical';

/** A readable table: where its rows are, its columns, and the column that keys its rows. */
export interface TableRelation {
  source: TableQuery['source'];
  columns: Column[];
  rowKey: string | null;
  /** The order rows come in when a request asks for none (a model's own sort). */
  defaultSorting?: Sorting[];
  /**
   * A cheaper page statement for requests with no filters and no sort, when the relation has one
   * (a model: rows in base-table order, see the engine's compileModelPageInBaseOrder); null = none.
   * With `keyBound`, the statement reads within its base key's bound: right only when it comes back full.
   */
  unsortedPage?: (page: { offset: number; limit: number }, keyBound?: boolean) => CompiledQuery | null;
  /**
   * The warehouse's type of each column by key (BIGINT, DECIMAL(20,6), ...), read for a request
   * that compares numbers (`withSqlTypes`): the engine binds filter values in it, exactly.
   */
  sqlTypes?: ReadonlyMap<string, string>;
}

/** The relation's columns as the engine takes them: key, type, name, and SQL type when read. */
export function engineColumns(relation: Pick<TableRelation, 'columns' | 'sqlTypes'>): RelationColumn[] {
  return relation.columns.map((c) => {
    const sqlType = relation.sqlTypes?.get(c.columnKey);
    return { columnKey: c.columnKey, type: c.type, displayName: c.displayName, ...(sqlType ? { sqlType } : {}) };
  });
}

/**
 * The relation with its columns' SQL types when a filter compares a Number, DateTime or Text column
 * with a value (relation-types.ts reads them, once per table version); as it is otherwise, at no cost.
 */
export async function withSqlTypes(
  executor: WarehouseExecutor,
  relation: TableRelation,
  filterGroups: readonly { filters: readonly Pick<Filter, 'columnKey' | 'operator'>[] }[],
): Promise<TableRelation> {
  // Numbers and date-times compare in their column's own type (a decimal's scale, a timestamp's digits),
  // text as the grid shows it (an interval's ISO duration, a BLOB's base64: values/shown-text.ts).
  const typed = new Set(
    relation.columns
      .filter((c) => c.type === 'Number' || c.type === 'DateTime' || c.type === 'Text')
      .map((c) => c.columnKey),
  );
  const compares = filterGroups.some((group) =>
    group.filters.some((f) => typed.has(f.columnKey) && f.operator !== 'Exists' && f.operator !== 'Empty'),
  );
  if (!compares || relation.sqlTypes) return relation;
  return { ...relation, sqlTypes: await relationSqlTypes(executor, relation.source) };
}

export function staticRelation(tableId: string, columns: Column[]): TableRelation {
  return {
    source: { kind: 'table', schema: STATIC_SCHEMA, name: warehouseTableName(tableId) },
    columns,
    rowKey: ROW_ID,
  };
}

export interface TableRequest {
  page: number;
  pageSize: number;
  filterGroups: FilterGroup[];
  sorting: Sorting[];
}

/** A statement compiled when first asked for; an engine problem (the user's) is a 400. */
function compiledOnce<T extends CompiledQuery | null>(compile: () => T): () => T {
  let compiled: { statement: T } | null = null;
  return () => {
    if (compiled) return compiled.statement;
    try {
      compiled = { statement: compile() };
    } catch (error) {
      if (isModelError(error)) throw badInput(error.message);
      throw error;
    }
    return compiled.statement;
  };
}

/**
 * The page and count statements for a request, and the engine query they came from, each compiled
 * when first read (a page without a count compiles no count). A filter or sort the user got wrong
 * (unknown column, impossible value) is a 400 with the engine's message, never a 500.
 */
export function compileTableQuery(
  relation: TableRelation,
  request: TableRequest,
): { page: CompiledQuery; count: CompiledQuery; keyBoundPage: CompiledQuery | null; query: TableQuery } {
  const query: TableQuery = {
    source: relation.source,
    columns: engineColumns(relation),
    rowKey: relation.rowKey,
    select: relation.rowKey ? [relation.rowKey, ...relation.columns.map((c) => c.columnKey)] : [],
    filterGroups: request.filterGroups,
    sorting: requestSorting(relation, request.sorting),
    page: { page: request.page, pageSize: request.pageSize },
  };
  const offset = (request.page - 1) * request.pageSize;
  const page = compiledOnce(
    () => unsortedStatement(relation, query, { offset, limit: request.pageSize }) ?? compilePageQuery(query),
  );
  const count = compiledOnce(() => compileCountQuery(query));
  // The page again, read within the row key's bound (the engine's keyBound), when the request allows it.
  const keyBoundPage = compiledOnce(
    () => unsortedStatement(relation, query, { offset, limit: request.pageSize }, true) ?? compileKeyBoundPage(query),
  );
  return {
    get page() {
      return page();
    },
    get count() {
      return count();
    },
    get keyBoundPage() {
      return keyBoundPage();
    },
    query,
  };
}

/** The order a request reads in: its own sort, else the relation's (a model's own sort). */
export function requestSorting(relation: TableRelation, sorting: Sorting[]): Sorting[] {
  return sorting.length > 0 ? sorting : (relation.defaultSorting ?? []);
}

/**
 * The relation's own statement for rows with no filter and no sort (a model's rows in base-table
 * order), or null when the request has either or the relation has none. Pages and downloads both
 * decide here, so a download is in the order the grid shows.
 */
export function unsortedStatement(
  relation: TableRelation,
  query: Pick<TableQuery, 'filterGroups' | 'sorting'>,
  page: { offset: number; limit: number },
  keyBound = false,
): CompiledQuery | null {
  const unfiltered = query.filterGroups.every((group) => group.filters.length === 0);
  if (query.sorting.length > 0 || !unfiltered || !relation.unsortedPage) return null;
  return relation.unsortedPage(page, keyBound);
}

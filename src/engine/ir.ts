/**
 * The plain-data description of a table query: what the server builds from a request and hands to
 * the compiler. Only JSON-safe data (no functions, no classes), so it can be logged, cached by value
 * and tested without a database.
 */
import type { ColumnType, ConditionOperator, FilterOperator, SortDirection } from '../shared/tables';
import type { SelectStatement } from './sql-ast';

/** A stored relation: a table or view in a schema, e.g. `{ kind: 'table', schema: 'static', name: 't_abc' }`. */
export interface TableRelation {
  kind: 'table';
  schema: string;
  name: string;
}

/**
 * A SELECT read as a relation, e.g. a draft model's statement (`compileModelSelect`): paged,
 * filtered and sorted like a table, its output column names being the column keys.
 */
export interface SelectRelation {
  kind: 'select';
  statement: SelectStatement;
  /** The subquery's alias in FROM; engine-made, default `model`. */
  alias?: string;
}

/** Relations a query can read. */
export type Relation = TableRelation | SelectRelation;

/** A column the relation is known to have, with the type the user sees. */
export interface RelationColumn {
  columnKey: string;
  type: ColumnType;
  /**
   * The warehouse's own type when known, as DuckDB names it (`BIGINT`, `DECIMAL(20,6)`, `HUGEINT`,
   * `DOUBLE`, ...). Filters bind numbers in it, so exact types compare exactly; without it, numbers
   * are bound in a type that is safe for any numeric column (filters/operands.ts).
   */
  sqlType?: string;
  /** Used in error messages when present, since the user knows columns by this name. */
  displayName?: string;
}

/** A filter value as the request carries it; dates and times are ISO text. */
export type FilterValue = string | number | boolean | null | undefined;

/** One condition; `conditionOperator` joins it to the filter before it (default Or, ignored on the first). */
export interface FilterSpec {
  columnKey: string;
  operator: FilterOperator;
  value?: FilterValue;
  value2?: FilterValue;
  conditionOperator?: ConditionOperator;
}

/** Filters of a group are joined by their condition operators; groups are joined with And. */
export interface FilterGroupSpec {
  filters: readonly FilterSpec[];
}

export interface SortSpec {
  columnKey: string;
  direction?: SortDirection;
  /** Carried by the spec's Sorting; not used by the compiler. */
  fieldName?: string;
}

/** 1-based page number and rows per page, as in the spec's paged calls. */
export interface PageSpec {
  page: number;
  pageSize: number;
}

export interface TableQuery {
  source: Relation;
  /** Every column of the relation a request may name; anything else is an unknown column. */
  columns: readonly RelationColumn[];
  /**
   * A column unique per row (e.g. `_row_id`), used as the last sort key so pages never repeat or
   * skip rows, and to fetch a page's wide columns by key. It need not be listed in `columns`.
   * When null, all selected columns break ties and pages use plain LIMIT/OFFSET.
   */
  rowKey: string | null;
  /** Column keys to return, in order (the row key may be among them); empty means all `columns`. */
  select: readonly string[];
  filterGroups: readonly FilterGroupSpec[];
  sorting: readonly SortSpec[];
  page: PageSpec;
}

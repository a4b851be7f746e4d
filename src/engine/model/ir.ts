/**
 * A model as the engine takes it: the spec's Model, Join and Column shapes (data-areas.md §3), plus
 * what the server knows about each source (its stored relation and columns). JSON-safe data only.
 */
import { JOIN_OPERATORS, JOIN_TYPES, type JoinOperator, type JoinType } from '../../shared/models';
import type { ColumnType, TableType } from '../../shared/tables';
import type { FilterGroupSpec, RelationColumn, SortSpec, TableRelation } from '../ir';
import type { SelectStatement } from '../sql-ast';
import type { TimeGrain } from '../dialect';

/** A table a model reads: an integration dataset, a static table or another model's version. */
export interface SourceRef {
  sourceId: string;
  sourceType: TableType;
}

export interface ModelSourceSpec extends SourceRef {
  /** Where its rows are stored. */
  relation: TableRelation;
  /** Its columns, by source column key (the stored column names). */
  columns: readonly RelationColumn[];
  /** How the user knows it, for messages; defaults to the source id. */
  displayName?: string;
  /** A column unique per row (e.g. a static table's `_row_id`), when the source has one. */
  rowKey?: string | null;
}

export interface ModelColumnSpec {
  columnKey: string;
  displayName: string;
  order: number;
  /** A raw column: this column of a source. */
  sourceColumn?: (SourceRef & { columnKey: string }) | null;
  /** A function column: formula text (src/engine/formula). */
  function?: string | null;
  /** Converts the value (bad values become null) and so changes the column's type. */
  castTo?: ColumnType | null;
}

// The spec's join operators and types are shared with the client's relationship editor.
export { JOIN_OPERATORS, JOIN_TYPES };
export type { JoinOperator };

export type JoinValue = string | number | boolean | null;

/**
 * One comparison. Each side is a SOURCE column key of that side's table, or a constant value
 * (bound as a parameter of the other side's type).
 */
export interface JoinConditionSpec {
  leftColumnKey?: string | null;
  leftValue?: JoinValue;
  operator: JoinOperator;
  rightColumnKey?: string | null;
  rightValue?: JoinValue;
  /** Number columns: Equals within `tolerance`; Date/DateTime columns: compare truncated to `datePrecision`. */
  format?: { tolerance?: number | null; datePrecision?: TimeGrain | null } | null;
}

export type ModelJoinType = JoinType;

/** Conditions of a group are ANDed, groups are ORed. */
export interface JoinSpec {
  leftTable: SourceRef;
  rightTable: SourceRef;
  joinType: ModelJoinType;
  joinGroups: readonly { conditions: readonly JoinConditionSpec[] }[];
}

export interface ModelSpec {
  sources: readonly ModelSourceSpec[];
  columns: readonly ModelColumnSpec[];
  joins: readonly JoinSpec[];
  /** By MODEL column keys. */
  filterGroups: readonly FilterGroupSpec[];
  /** By MODEL column keys: the default order of the model's rows. */
  sort: readonly SortSpec[];
}

/** A model column as the compiled model returns it. */
export interface ModelOutputColumn {
  columnKey: string;
  type: ColumnType;
  displayName: string;
  /** The source column's warehouse type, for a raw column of a source described with SQL types. */
  sqlType?: string;
}

export interface CompiledModel {
  /** SELECT of the model's columns in `order`, FROM/JOINs, WHERE from the model's filters; no ORDER BY. */
  statement: SelectStatement;
  columns: ModelOutputColumn[];
  /** The model's own sort, for a page query when the grid asks for none. */
  defaultSorting: SortSpec[];
}

/**
 * A pivot as the engine takes it: the spec's Pivot fields that shape the query (key and name do not).
 * The shared `Pivot` (src/shared/pivots.ts, zod defaults applied) is assignable to `PivotSpec`.
 */
import type { PivotAggregation, PivotColumnKey, PivotShowAs, PivotTimeGrain } from '../../shared/pivots';
import type { FilterOperator, SortDirection } from '../../shared/tables';
import type { FilterValue, Relation, RelationColumn } from '../ir';
import type { SqlDialect } from '../dialect';

export interface PivotSortSpec {
  direction?: SortDirection;
  /** Sort by this value field's aggregate (an index into `values`); absent or null sorts by the key. */
  valueIndex?: number | null;
}

export interface PivotFieldSpec {
  /** A column key of the relation. */
  column: string;
  sort?: PivotSortSpec;
  /** Date and DateTime fields: group by this time grain (ISO weeks); absent or null: the exact value. */
  grain?: PivotTimeGrain | null;
}

export interface PivotValueSpec {
  column: string;
  /** Default Sum. */
  function?: PivotAggregation;
  /** Default Default. */
  showAs?: PivotShowAs;
  displayName?: string | null;
}

export interface PivotFilterSpec {
  column: string;
  operator: FilterOperator;
  value?: FilterValue;
  value2?: FilterValue;
}

export interface PivotSpec {
  filters?: readonly PivotFilterSpec[];
  rows: readonly PivotFieldSpec[];
  columns: readonly PivotFieldSpec[];
  values: readonly PivotValueSpec[];
  showRowTotals: boolean;
  showColumnTotals: boolean;
}

/** What every pivot compilation reads: the rows to summarise, their columns, the pivot. */
export interface PivotSource {
  relation: Relation;
  /** The relation's columns a pivot may name (model column keys). */
  columns: readonly RelationColumn[];
  pivot: PivotSpec;
  /** Defaults to DuckDB. */
  dialect?: SqlDialect;
}

export interface PivotKeysInput extends PivotSource {
  /** Most column keys wanted; the query asks for one more so the caller can tell "too many". */
  limit: number;
}

export interface PivotQueryInput extends PivotSource {
  /** The column keys the key query returned (`readPivotColumnKeys`), in display order. */
  columnKeys: readonly (readonly (string | number | boolean | null)[])[];
  /** Rows of the pivot grid to return (totals included), e.g. `{ offset: 0, limit: 200 }`. */
  page: { offset: number; limit: number };
}

export type { PivotColumnKey };

import type { ColumnType, FilterGroup, Paged, Sorting } from '../../../shared/tables';

/** A column as the grid shows it. */
export interface GridColumn {
  key: string;
  name: string;
  type: ColumnType;
  description?: string | null;
  /** Starting width in px; the user may resize between the grid's limits. */
  width?: number;
}

/** Every row carries a stable key, so edits and selection survive paging and sorting. */
export type GridRow = Record<string, unknown> & { _row_id: number | string };

/** What the grid asks its source for: filters and sort travel with every page. */
export interface GridQuery {
  filterGroups: FilterGroup[];
  sorting: Sorting[];
}

export interface GridSource {
  /** Identifies the table in the query cache; the query state is appended. */
  key: readonly unknown[];
  fetchPage: (query: GridQuery & { page: number; pageSize: number }) => Promise<Paged<GridRow>>;
  /** A count that may come later than the first page. */
  fetchCount: (query: GridQuery) => Promise<number>;
}

export interface CellPosition {
  rowIndex: number;
  columnIndex: number;
}

export interface CellEdit {
  rowId: GridRow['_row_id'];
  columnKey: string;
  value: string | null;
  /** The value before the edit, so it can be undone. */
  previous: string | null;
}

import type { ColumnFormat } from '../../../shared/models';
import type { ToolbarEntry } from '../responsive-toolbar';
import type { PastePlan } from './paste-plan';
import type { ReactNode } from 'react';
import type { ColumnType, FilterGroup, Paged, Sorting } from '../../../shared/tables';

/** A column as the grid shows it. */
export interface GridColumn {
  key: string;
  name: string;
  type: ColumnType;
  description?: string | null;
  /** Starting width in px; the user may resize between the grid's limits. */
  width?: number;
  /** How numbers show (a model column's Format); none shows them as they are. */
  format?: ColumnFormat | null;
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

/** Page-by-page reading instead of infinite scroll; the owner keeps the state (e.g. in the URL). */
export interface GridPagination {
  /** 1-based. */
  page: number;
  /** One of LIMITS.pageSizes. */
  pageSize: number;
  onChange: (next: { page: number; pageSize: number }) => void;
}

/** How the grid reads rows: pages with controls, or one long list loaded as the user scrolls. */
export type GridView = 'pages' | 'scroll';

export interface DataGridProps {
  columns: GridColumn[];
  source: GridSource;
  query: GridQuery;
  onQueryChange: (query: GridQuery) => void;
  /** When set, text and empty cells can be edited, cleared, filled and pasted into. */
  onEdit?: (edits: CellEdit[]) => void;
  /**
   * Tables that grow: a paste that reaches past the last row or column (new columns only once the
   * user agreed to them). Without it such a paste writes what fits and says what did not.
   */
  onPaste?: (plan: PastePlan) => void;
  /**
   * Values not saved yet, by `unsavedKey(rowId, columnKey)`: shown instead of the loaded ones, so a
   * reload of the rows never hides them; marked as unsaved when `markUnsaved` (a save failed).
   */
  unsaved?: ReadonlyMap<string, string | null>;
  markUnsaved?: boolean;
  onColumnSettings?: (columnKey: string) => void;
  /** The page's toolbar actions (Add row, Add column, a view switch...): inline, or in '…' on a phone. */
  actions?: ToolbarEntry[];
  /** Under the grid, e.g. sheet tabs. */
  footer?: ReactNode;
  /** Editable tables: remove a row (cell and row-number menus) or a column (header menu). */
  onDeleteRow?: (rowId: GridRow['_row_id']) => void;
  onDeleteColumn?: (columnKey: string) => void;
  /** Editable tables: move a column to another place in the order. */
  onMoveColumn?: (columnKey: string, toIndex: number) => void;
  /**
   * Editable tables: move row `rowId` to the place of row `toRowId`, its neighbour above or below
   * (row-number menu, Alt+ArrowUp/Down). Offered only while no sort decides the order.
   */
  onMoveRow?: (rowId: number, toRowId: number) => void;
  /** Rows per infinite-scroll request (spec: 100 for datasets). */
  chunkSize?: number;
  /** When set, rows are read page by page with controls under the grid instead of by scrolling. */
  pagination?: GridPagination;
  /** Shows the Scroll / Pages switch in the toolbar. */
  onViewChange?: (view: GridView) => void;
  /** Shows Download (CSV, Parquet): a form post to this URL with the grid's filters and sort. */
  downloadUrl?: string;
  /**
   * What Download sends when it is not `query`: a source that sends no filters and sort of its own
   * (a model's version applies them) downloads with none too, so the file has the grid's order.
   */
  downloadQuery?: GridQuery;
  /** Adds 'Save as report…' to Download: called with what Download would send. */
  onSaveReport?: (query: GridQuery) => void;
}

/** The key of a cell in `DataGridProps.unsaved`. */
export const unsavedKey = (rowId: GridRow['_row_id'], columnKey: string) => `${String(rowId)}\u0000${columnKey}`;

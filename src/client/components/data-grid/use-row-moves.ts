import type { Dispatch, SetStateAction } from 'react';
import type { CellPosition, GridQuery, GridRow, GridSource } from './types';

interface RowMovesOptions {
  rows: GridRow[];
  /** Rows before the first one loaded (earlier pages). */
  rowOffset: number;
  /** Rows matching the filters, once counted. */
  total: number | undefined;
  hasMore: boolean;
  source: GridSource;
  query: GridQuery;
  onMoveRow?: (rowId: number, toRowId: number) => void;
  setSelected: Dispatch<SetStateAction<CellPosition | null>>;
  scrollToRow: (rowIndex: number) => void;
}

/**
 * Moving a row one place up or down: it takes the place of its neighbour in the grid's order (with
 * filters, the next row shown). The neighbour on another page is read from the server. A sort
 * decides the order by values, so moves are off while one is set.
 */
export function useRowMoves(options: RowMovesOptions) {
  const { rows, rowOffset, total, onMoveRow } = options;
  const hint = options.query.sorting.length ? 'Clear the sort to move rows.' : undefined;
  const enabled = !!onMoveRow && !hint;
  const canMoveUp = (index: number) => enabled && rowOffset + index > 0;
  const canMoveDown = (index: number) =>
    enabled && (total === undefined ? index < rows.length - 1 || options.hasMore : rowOffset + index < total - 1);

  const neighbourId = async (index: number, step: -1 | 1): Promise<number | undefined> => {
    const loaded = rows[index + step];
    if (loaded) return Number(loaded._row_id);
    const position = rowOffset + index + step;
    if (position < 0) return undefined;
    // One row per page makes the page number the row's place in the order.
    const page = await options.source.fetchPage({ ...options.query, page: position + 1, pageSize: 1 });
    return page.data[0] ? Number(page.data[0]._row_id) : undefined;
  };

  const moveRow = async (index: number, step: -1 | 1) => {
    const row = rows[index];
    if (!onMoveRow || !row || !(step < 0 ? canMoveUp(index) : canMoveDown(index))) return;
    const toRowId = await neighbourId(index, step);
    if (toRowId === undefined) return;
    onMoveRow(Number(row._row_id), toRowId);
    // The selection follows the row while it stays on this page.
    const to = index + step;
    if (to >= 0 && to < rows.length) {
      options.setSelected((s) => (s && s.rowIndex === index ? { ...s, rowIndex: to } : s));
      options.scrollToRow(to);
    }
  };

  return { hint, canMoveUp, canMoveDown, moveRow };
}

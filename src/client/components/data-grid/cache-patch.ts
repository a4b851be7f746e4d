import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { Paged } from '../../../shared/tables';
import type { CellEdit, GridQuery, GridRow, GridSource } from './types';

/** Cached rows come as chunks of infinite scroll or as one page (pagination). */
type CachedRows = InfiniteData<Paged<GridRow>> | Paged<GridRow>;

const isChunks = (data: CachedRows): data is InfiniteData<Paged<GridRow>> => 'pages' in data;

/** Every cached rows query of the grid, with the grid query (filters, sort) it was read with. */
function cachedRows(queryClient: QueryClient, source: Pick<GridSource, 'key'>) {
  return queryClient
    .getQueriesData<CachedRows>({ queryKey: [...source.key, 'rows'] })
    .flatMap(([key, data]) =>
      data ? [{ key, data, query: key[source.key.length + 1] as GridQuery | undefined }] : [],
    );
}

/** The rows of cached data replaced by `change(rows)`, split again into the chunks they came in. */
function withRows(data: CachedRows, change: (rows: GridRow[]) => GridRow[]): CachedRows {
  if (!isChunks(data)) return { ...data, data: change(data.data) };
  const all = change(data.pages.flatMap((p) => p.data));
  let at = 0;
  return {
    ...data,
    pages: data.pages.map((page) => {
      const part = all.slice(at, at + page.data.length);
      at += page.data.length;
      return { ...page, data: part };
    }),
  };
}

/**
 * Writes edits into every cached page of the grid's rows (whatever filter or sort they were read
 * with), so typing, pasting, undo and redo show at once while the server saves in the background.
 */
export function patchCachedRows(queryClient: QueryClient, source: Pick<GridSource, 'key'>, edits: CellEdit[]): void {
  if (edits.length === 0) return;
  const byRow = new Map<string, CellEdit[]>();
  for (const edit of edits) {
    const key = String(edit.rowId);
    byRow.set(key, [...(byRow.get(key) ?? []), edit]);
  }
  const patchRow = (row: GridRow) => {
    const rowEdits = byRow.get(String(row._row_id));
    if (!rowEdits) return row;
    const next: GridRow = { ...row };
    for (const e of rowEdits) next[e.columnKey] = e.value;
    return next;
  };
  for (const { key, data } of cachedRows(queryClient, source)) {
    queryClient.setQueryData<CachedRows>(
      key,
      withRows(data, (rows) => rows.map(patchRow)),
    );
  }
}

/**
 * The row ids after row `rowId` takes the place of row `toRowId` (the server's moveRow): the rows
 * between shift one id toward the place it left.
 */
export function movedId(id: number, rowId: number, toRowId: number): number {
  if (id === rowId) return toRowId;
  if (toRowId < rowId && id >= toRowId && id < rowId) return id + 1;
  if (toRowId > rowId && id > rowId && id <= toRowId) return id - 1;
  return id;
}

/**
 * Shows a row move at once in cached rows read in row order (no sort) that hold both rows: the ids
 * are renumbered and the rows re-sorted, exactly as the server will. Every other cached query (the
 * row left or entered its page, or a sort decides the order) is returned for a refetch once the
 * server has saved the move.
 */
export function moveCachedRow(
  queryClient: QueryClient,
  source: Pick<GridSource, 'key'>,
  rowId: number,
  toRowId: number,
): QueryKey[] {
  const stale: QueryKey[] = [];
  for (const { key, data, query } of cachedRows(queryClient, source)) {
    const ids = new Set((isChunks(data) ? data.pages.flatMap((p) => p.data) : data.data).map((r) => Number(r._row_id)));
    const exact = (query?.sorting.length ?? 1) === 0 && ids.has(rowId) && ids.has(toRowId);
    if (!exact) {
      stale.push(key);
      continue;
    }
    const renumber = (rows: GridRow[]) =>
      rows
        .map((row) => ({ ...row, _row_id: movedId(Number(row._row_id), rowId, toRowId) }))
        .sort((a, b) => a._row_id - b._row_id);
    queryClient.setQueryData<CachedRows>(key, withRows(data, renumber));
  }
  return stale;
}

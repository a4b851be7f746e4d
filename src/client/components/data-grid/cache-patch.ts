import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Paged } from '../../../shared/tables';
import type { CellEdit, GridRow, GridSource } from './types';

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
  queryClient.setQueriesData<InfiniteData<Paged<GridRow>>>({ queryKey: [...source.key, 'rows'] }, (data) => {
    if (!data) return data;
    return {
      ...data,
      pages: data.pages.map((page) => {
        if (!page.data.some((row) => byRow.has(String(row._row_id)))) return page;
        return {
          ...page,
          data: page.data.map((row) => {
            const rowEdits = byRow.get(String(row._row_id));
            if (!rowEdits) return row;
            const next: GridRow = { ...row };
            for (const e of rowEdits) next[e.columnKey] = e.value;
            return next;
          }),
        };
      }),
    };
  });
}

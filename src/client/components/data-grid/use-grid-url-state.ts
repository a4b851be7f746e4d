import { useMemo } from 'react';
import { LIMITS } from '../../../shared/limits';
import type { GridPagination, GridQuery, GridView } from './types';
import {
  decodeFilterGroups,
  decodePaging,
  decodeSorting,
  encodeFilterGroups,
  encodePaging,
  encodeSorting,
  type GridSearch,
} from './url-state';

/**
 * A grid whose filters, sort and paging live in the page's URL (`gridSearchSchema`): what the grid
 * props need, read from `search`, and changes written back as a patch of the search, which the route
 * applies with its own typed navigate (`(patch) => navigate({ search: (s) => ({ ...s, ...patch }), replace: true })`).
 */
export function useGridUrlState(search: GridSearch, setSearch: (patch: Partial<GridSearch>) => void) {
  const query: GridQuery = useMemo(
    () => ({ filterGroups: decodeFilterGroups(search.filter), sorting: decodeSorting(search.sort) }),
    [search.filter, search.sort],
  );
  const paging = decodePaging(search);
  const setPaging = (next: { page: number; pageSize: number } | null) => setSearch(encodePaging(next));
  const pagination: GridPagination | undefined = paging ? { ...paging, onChange: setPaging } : undefined;
  return {
    query,
    // New filters or sort start again at the first page.
    setQuery: (next: GridQuery) =>
      setSearch({ filter: encodeFilterGroups(next.filterGroups), sort: encodeSorting(next.sorting), page: undefined }),
    pagination,
    /** The toolbar's Scroll / Pages switch: pages start at the first, 50 rows each. */
    setView: (view: GridView) => setPaging(view === 'pages' ? { page: 1, pageSize: LIMITS.defaultPageSize } : null),
  };
}

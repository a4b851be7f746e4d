import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { GRID } from './constants';
import type { GridQuery, GridRow, GridSource } from './types';

/** The query-cache key of the grid's rows: infinite scroll under `[...key, 'rows', query]`, a page one longer. */
const rowsKey = (source: Pick<GridSource, 'key'>, query: GridQuery, paging?: PageOf | null) =>
  paging ? [...source.key, 'rows', query, paging] : [...source.key, 'rows', query];

export interface PageOf {
  page: number;
  pageSize: number;
}

/**
 * Rows in chunks for infinite scroll, or one page at a time when `paging` is set, and the count in
 * its own query so the first rows never wait for it. Data stays fresh 10 minutes, the count 5
 * (spec section 9). Only the query of the current mode runs.
 */
export function useGridData(
  source: GridSource,
  query: GridQuery,
  chunkSize: number = GRID.chunkSize,
  paging: PageOf | null = null,
) {
  const chunks = useInfiniteQuery({
    queryKey: rowsKey(source, query),
    queryFn: ({ pageParam }) => source.fetchPage({ ...query, page: pageParam, pageSize: chunkSize }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    staleTime: 10 * 60_000,
    retry: 1,
    enabled: paging === null,
  });
  const single = useQuery({
    queryKey: rowsKey(source, query, paging),
    queryFn: () => source.fetchPage({ ...query, page: paging?.page ?? 1, pageSize: paging?.pageSize ?? chunkSize }),
    staleTime: 10 * 60_000,
    retry: 1,
    enabled: paging !== null,
    // The old page stays on screen while the next one loads, so the controls do not jump.
    placeholderData: keepPreviousData,
  });
  const count = useQuery({
    queryKey: [...source.key, 'count', query],
    queryFn: () => source.fetchCount(query),
    staleTime: 5 * 60_000,
    retry: 1,
  });
  const rows = useMemo<GridRow[]>(
    () => (paging ? (single.data?.data ?? []) : (chunks.data?.pages.flatMap((p) => p.data) ?? [])),
    [paging, single.data, chunks.data],
  );
  const current = paging ? single : chunks;
  const shown = paging ? (single.data ?? paging) : null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = chunks;
  /** Infinite scroll only: loads the next chunk unless one is on its way. */
  const loadMore = useCallback(() => {
    if (!paging && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [paging, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return {
    rows,
    /**
     * Rows before the first one shown: the gutter numbers from here. Taken from the page on screen,
     * which stays the previous one while the next loads.
     */
    rowOffset: shown ? (shown.page - 1) * shown.pageSize : 0,
    total: count.data,
    loading: current.isPending,
    failed: current.isError && !current.isFetching,
    error: current.error,
    /** Whether rows exist after the last one shown (the next page, or the next chunk). */
    hasMore: paging ? (single.data?.hasMore ?? false) : chunks.hasNextPage,
    loadMore,
  };
}

export type GridData = ReturnType<typeof useGridData>;

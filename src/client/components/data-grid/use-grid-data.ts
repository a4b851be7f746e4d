import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { GRID } from './constants';
import type { GridQuery, GridRow, GridSource } from './types';

/**
 * Rows in chunks for infinite scroll, and the count in its own query so the first page never
 * waits for it. Data stays fresh 10 minutes, the count 5 (spec section 9).
 */
export function useGridData(source: GridSource, query: GridQuery, chunkSize: number = GRID.chunkSize) {
  const pages = useInfiniteQuery({
    queryKey: [...source.key, 'rows', query],
    queryFn: ({ pageParam }) => source.fetchPage({ ...query, page: pageParam, pageSize: chunkSize }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    staleTime: 10 * 60_000,
    retry: 1,
  });
  const count = useQuery({
    queryKey: [...source.key, 'count', query],
    queryFn: () => source.fetchCount(query),
    staleTime: 5 * 60_000,
    retry: 1,
  });
  const rows = useMemo<GridRow[]>(() => pages.data?.pages.flatMap((p) => p.data) ?? [], [pages.data]);
  return { pages, count, rows };
}

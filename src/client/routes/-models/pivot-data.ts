import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { Model } from '../../../shared/models';
import { PIVOT_LIMITS, type Pivot, type PivotLayout, type PivotRow } from '../../../shared/pivots';
import { errorStatus } from '../../lib/error-message';
import { trpcUtils } from '../../trpc';
import { isEmptyPivot } from './pivot-draft';
import { MODEL_ROWS_KEY } from './use-model';

/**
 * The pivot's rows in chunks of 200 (spec §9) for infinite scroll. The key sits under the model's
 * rows key, so every model edit reads it again, and holds the pivot itself, so an applied change
 * never shows an older answer. While a changed pivot loads, the previous grid stays on screen.
 */
export function usePivotData(model: Pick<Model, 'versionId' | 'modifiedAt'>, pivot: Pivot) {
  const empty = isEmptyPivot(pivot);
  const chunks = useInfiniteQuery({
    queryKey: [MODEL_ROWS_KEY, 'pivot', model.versionId, model.modifiedAt, pivot],
    queryFn: ({ pageParam }) =>
      trpcUtils.models.pivotPage.fetch(
        { versionId: model.versionId, pivotKey: pivot.key, page: pageParam, pageSize: PIVOT_LIMITS.chunkRows },
        { staleTime: 0 },
      ),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
    staleTime: 10 * 60_000,
    // A 400 is the user's to fix (e.g. too many column values): asking again cannot help.
    retry: (failures, error) => failures < 1 && errorStatus(error) !== 400,
    placeholderData: keepPreviousData,
    enabled: !empty,
  });
  const rows = useMemo<PivotRow[]>(() => chunks.data?.pages.flatMap((p) => p.rows) ?? [], [chunks.data]);
  const layout: PivotLayout | null = chunks.data?.pages[0]?.layout ?? null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = chunks;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return {
    empty,
    layout,
    rows,
    loading: !empty && chunks.isPending,
    /** The grid on screen is the previous pivot's while the changed one loads. */
    stale: chunks.isPlaceholderData,
    error: chunks.isError && !chunks.isFetching ? chunks.error : null,
    hasMore: hasNextPage,
    /** Loads the next chunk unless one is on its way. */
    loadMore,
  };
}

export type PivotData = ReturnType<typeof usePivotData>;

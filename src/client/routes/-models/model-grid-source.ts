import type { GridRow, GridSource } from '../../components/data-grid/types';
import { trpcUtils } from '../../trpc';
import { MODEL_ROWS_KEY } from './use-model';

/**
 * A model version's rows for the grid. The version applies the model's own filters and sort, so
 * for an editor (whose grid filters and sort are saved to the draft) the grid's are not sent again.
 * A reader cannot change the model: with `sendQuery` their grid's filters and sort travel with each
 * page instead, on top of the model's own, and change nothing for anyone else.
 * Models have no row key, so each row is keyed by its place in the result; `revision` (the
 * version's modifiedAt) makes an edited draft read again.
 */
export function modelGridSource(versionId: string, revision: string, sendQuery = false): GridSource {
  return {
    key: [MODEL_ROWS_KEY, versionId, revision, sendQuery],
    fetchPage: async ({ page: pageNumber, pageSize, filterGroups, sorting }) => {
      const page = await trpcUtils.tables.page.fetch(
        // The grid counts with its own call, so the first page never waits for a count.
        {
          type: 'ModelVersion',
          id: versionId,
          page: pageNumber,
          pageSize,
          withCount: false,
          ...(sendQuery ? { filterGroups, sorting } : {}),
        },
        { staleTime: 0 },
      );
      const offset = (pageNumber - 1) * pageSize;
      return { ...page, data: page.data.map((row, i) => ({ ...row, _row_id: offset + i + 1 }) as GridRow) };
    },
    fetchCount: async ({ filterGroups }) =>
      (
        await trpcUtils.tables.count.fetch(
          { type: 'ModelVersion', id: versionId, ...(sendQuery ? { filterGroups } : {}) },
          { staleTime: 0 },
        )
      ).totalCount,
  };
}

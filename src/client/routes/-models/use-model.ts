import { useQueryClient } from '@tanstack/react-query';
import type { Model } from '../../../shared/models';
import { trpc } from '../../trpc';

export const MODEL_ROWS_KEY = 'model-version-rows';

/**
 * The model page's data: the draft (else the active version) and its mutations. Every edit answers
 * the model, which replaces the cached one; rows, versions and the lists are read again (spec §4:
 * "Column edits immediately refresh data, versions and tables").
 */
export function useModel(id: string) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const model = trpc.models.get.useQuery({ id, draft: true });

  const applied = async (next: Model) => {
    // The page shows the draft when there is one; an answer that is not the draft is read again.
    if (next.status === 'Draft' || !next.hasUnpublishedChanges) utils.models.get.setData({ id, draft: true }, next);
    else await utils.models.get.invalidate({ id });
    await Promise.all([
      utils.models.versions.invalidate({ id }),
      utils.models.list.invalidate(),
      utils.tables.list.invalidate(),
      queryClient.invalidateQueries({ queryKey: [MODEL_ROWS_KEY] }),
    ]);
  };
  // Spec §8: a failed column update shows the server's message, then the model reloads. The
  // message is the one snackbar every failed mutation shows (query-client.ts): showing another
  // here made each failure two toasts.
  const failed = async () => {
    await utils.models.get.invalidate({ id });
  };
  const options = { onSuccess: applied, onError: failed };

  return {
    model,
    rename: trpc.models.rename.useMutation(options),
    addColumn: trpc.models.addColumn.useMutation(options),
    updateColumn: trpc.models.updateColumn.useMutation(options),
    deleteColumn: trpc.models.deleteColumn.useMutation(options),
    reorderColumns: trpc.models.reorderColumns.useMutation(options),
    setJoins: trpc.models.setJoins.useMutation(options),
    setPivots: trpc.models.setPivots.useMutation(options),
    setFilterGroups: trpc.models.setFilterGroups.useMutation(options),
    setSort: trpc.models.setSort.useMutation(options),
    publish: trpc.models.publish.useMutation(options),
    revert: trpc.models.revert.useMutation(options),
    undo: trpc.models.undo.useMutation(options),
    redo: trpc.models.redo.useMutation(options),
    setActive: trpc.models.setActive.useMutation(options),
  };
}

export type ModelHandle = ReturnType<typeof useModel>;

import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { TableChange } from '../../../shared/static-tables';
import { moveCachedRow, patchCachedRows } from '../../components/data-grid/cache-patch';
import type { CellEdit, GridSource } from '../../components/data-grid/types';
import { errorMessage } from '../../lib/error-message';
import { trpcClient } from '../../trpc';
import type { SaveState } from './save-indicator';
import { useEditHistory, type EditStep } from './use-edit-history';

/**
 * The static table editor's saving: changes go to the server one call at a time, in the order they
 * were made (a row move names rows by the ids the moves before it left), while the grid already
 * shows them. Cell edits and row moves are undoable steps; the save indicator follows the queue.
 */
export function useTableChanges(id: string, source: GridSource) {
  const queryClient = useQueryClient();
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const pending = useRef(0);

  const send = useCallback(
    (changes: TableChange[]) => {
      pending.current += 1;
      setSaveState('saving');
      const result = queue.current.then(() => trpcClient.staticTables.change.mutate({ id, changes }));
      queue.current = result.catch(() => undefined);
      return result.then(
        (answer) => {
          pending.current -= 1;
          if (pending.current === 0) setSaveState((s) => (s === 'error' ? s : 'saved'));
          return answer;
        },
        (error: unknown) => {
          pending.current -= 1;
          setSaveState('error');
          notifications.show({ color: 'red', title: 'Could not save the change', message: errorMessage(error) });
          throw error;
        },
      );
    },
    [id],
  );

  /** After a failed save the grid may show what the server does not have: read it again. */
  const resync = useCallback(() => queryClient.invalidateQueries({ queryKey: source.key }), [queryClient, source]);

  const apply = useCallback(
    (step: EditStep) => {
      if (step.kind === 'cells') {
        patchCachedRows(queryClient, source, step.edits);
        send([{ kind: 'cells', edits: step.edits.map(toServerEdit) }]).catch(resync);
        return;
      }
      const stale = moveCachedRow(queryClient, source, step.rowId, step.toRowId);
      send([{ kind: 'moveRow', rowId: step.rowId, toRowId: step.toRowId }]).then(
        () => Promise.all(stale.map((queryKey) => queryClient.invalidateQueries({ queryKey, exact: true }))),
        resync,
      );
    },
    [queryClient, source, send, resync],
  );
  const history = useEditHistory(apply);

  /** The grid has already shown the edits; they are recorded and saved. */
  const onEdit = (edits: CellEdit[]) => {
    history.record({ kind: 'cells', edits });
    send([{ kind: 'cells', edits: edits.map(toServerEdit) }]).catch(resync);
  };
  const onMoveRow = (rowId: number, toRowId: number) => {
    const step: EditStep = { kind: 'moveRow', rowId, toRowId };
    history.record(step);
    apply(step);
  };

  return { saveState, setSaveState, send, history, onEdit, onMoveRow };
}

function toServerEdit(edit: CellEdit) {
  return { rowId: Number(edit.rowId), columnKey: edit.columnKey, value: edit.value };
}

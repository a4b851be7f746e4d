import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { STATIC_TABLE_LIMITS, type TableChange } from '../../../shared/static-tables';
import { moveCachedRow, patchCachedRows } from '../../components/data-grid/cache-patch';
import type { PastePlan } from '../../components/data-grid/paste-plan';
import type { CellEdit, GridSource } from '../../components/data-grid/types';
import { errorMessage } from '../../lib/error-message';
import { trpcClient } from '../../trpc';
import { batches, chunks } from './change-batches';
import { useEditHistory, type EditStep, type PasteStep } from './use-edit-history';
import { useSaveQueue, type Changed, type QueueItem } from './use-save-queue';

/** Changes in one call (the server's limit). */
const CHANGES_PER_CALL = 100;

const toServerEdit = (edit: CellEdit) => ({ rowId: Number(edit.rowId), columnKey: edit.columnKey, value: edit.value });

/**
 * The static table editor's changes: cell edits, row moves and pastes are undoable steps, shown at
 * once and saved through the save queue in calls the server accepts (a large paste in several,
 * with progress). Row and column actions (`send`) are saved the same way.
 */
export function useTableChanges(id: string, source: GridSource, refresh: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  const saving = useSaveQueue(id);
  const { enqueue, enqueueCells } = saving;
  // Any change makes the server drop the copy an import or type change kept (set once the history exists).
  const forgetKept = useRef(() => {});

  /** Reads the table (columns) and its rows again: after rows or columns were added or removed. */
  const reload = useCallback(async () => {
    await refresh();
    await queryClient.invalidateQueries({ queryKey: source.key });
  }, [refresh, queryClient, source]);

  const cellItems = useCallback(
    (edits: CellEdit[]): QueueItem[] =>
      batches(edits, STATIC_TABLE_LIMITS.maxEditsPerCall).map((batch) => ({
        changes: () => [{ kind: 'cells', edits: batch.map(toServerEdit) }],
        cells: batch,
        cellsOnly: true,
        size: batch.length,
        onFail: 'keep',
        // Rows read again while it was saving may have brought the old values back.
        onSaved: () => patchCachedRows(queryClient, source, batch),
      })),
    [queryClient, source],
  );

  const pasteItems = useCallback(
    (step: PasteStep): QueueItem[] => {
      const { saved } = step;
      const keyOf = (key: string) => saved.keys.get(key) ?? key;
      const realEdits = (edits: CellEdit[]) => edits.map((e) => ({ ...e, columnKey: keyOf(e.columnKey) }));
      const isNew = (key: string) => step.newColumns.some((c) => c.key === key);
      const items: QueueItem[] = [];
      if (step.kind === 'paste') {
        saved.rowIds = [];
        chunks(step.newColumns, CHANGES_PER_CALL).forEach((group) =>
          items.push({
            changes: () =>
              group.map((c) => ({
                kind: 'addColumn' as const,
                // Again (redo): the key the table gave it the first time, free since the undo.
                column: { displayName: c.name, ...(saved.keys.has(c.key) ? { columnKey: saved.keys.get(c.key) } : {}) },
              })),
            cells: [],
            cellsOnly: false,
            size: group.length,
            onFail: 'keep',
            onSaved: (answer) => {
              if (!answer) return;
              const added = answer.columns.slice(answer.columns.length - group.length);
              group.forEach((c, i) => saved.keys.set(c.key, added[i]!.columnKey));
            },
          }),
        );
        batches(step.newRows, STATIC_TABLE_LIMITS.maxRowsPerChange).forEach((rows) =>
          items.push({
            changes: () => [
              {
                kind: 'appendRows',
                rows: rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [keyOf(k), v]))),
              },
            ],
            cells: [],
            cellsOnly: false,
            size: rows.length,
            onFail: 'keep',
            onSaved: (answer) => void saved.rowIds.push(...(answer?.addedRowIds ?? [])),
          }),
        );
        batches(step.edits, STATIC_TABLE_LIMITS.maxEditsPerCall).forEach((batch) =>
          items.push({
            changes: () => [{ kind: 'cells', edits: realEdits(batch).map(toServerEdit) }],
            cells: batch.filter((e) => !isNew(e.columnKey)),
            cellsOnly: false,
            size: batch.length,
            onFail: 'keep',
          }),
        );
      } else {
        // Undo: earlier values back in the columns that were there, then the added rows and columns go.
        const back = step.edits
          .filter((e) => !isNew(e.columnKey))
          .map((e) => ({ ...e, value: e.previous, previous: e.value }));
        items.push(...cellItems(back).map((item) => ({ ...item, cellsOnly: false })));
        const removals = (): TableChange[] => [
          ...chunks(saved.rowIds, STATIC_TABLE_LIMITS.maxRowsPerChange).map((rowIds) => ({
            kind: 'deleteRows' as const,
            rowIds,
          })),
          ...step.newColumns.flatMap((c) =>
            saved.keys.has(c.key) ? [{ kind: 'deleteColumn' as const, columnKey: saved.keys.get(c.key)! }] : [],
          ),
        ];
        items.push({
          changes: removals,
          cells: [],
          cellsOnly: false,
          size: step.newRows.length + step.newColumns.length,
          onFail: 'keep',
        });
      }
      const last = items.at(-1);
      if (last) {
        const after = last.onSaved;
        last.onSaved = async (answer) => {
          await after?.(answer);
          await reload();
        };
      }
      return items;
    },
    [cellItems, reload],
  );

  /**
   * Undo or redo of an import or type change: once the changes before it are saved, the table and
   * the copy the server kept change places, and both are read again.
   */
  const exchangeKept = useCallback(
    (token: string) =>
      enqueue([
        {
          changes: () => [],
          cells: [],
          cellsOnly: false,
          size: 1,
          onFail: 'drop',
          onSaved: async () => {
            try {
              await trpcClient.staticTables.restoreKept.mutate({ id, token });
            } catch (error) {
              forgetKept.current();
              notifications.show({ color: 'red', title: 'Could not undo', message: errorMessage(error) });
            }
            await reload();
          },
        },
      ]),
    [id, enqueue, reload],
  );

  const apply = useCallback(
    (step: EditStep) => {
      if (step.kind === 'kept') {
        exchangeKept(step.token);
        return;
      }
      forgetKept.current();
      if (step.kind === 'cells') {
        patchCachedRows(queryClient, source, step.edits);
        enqueueCells(step.edits, cellItems);
      } else if (step.kind === 'moveRow') {
        const stale = moveCachedRow(queryClient, source, step.rowId, step.toRowId);
        enqueue([
          {
            changes: () => [{ kind: 'moveRow', rowId: step.rowId, toRowId: step.toRowId }],
            cells: [],
            cellsOnly: false,
            size: 1,
            onFail: 'drop',
            onSaved: () =>
              void Promise.all(stale.map((queryKey) => queryClient.invalidateQueries({ queryKey, exact: true }))),
            onDropped: () => void queryClient.invalidateQueries({ queryKey: source.key }),
          },
        ]);
      } else {
        if (step.kind === 'paste') patchCachedRows(queryClient, source, step.edits);
        else
          patchCachedRows(
            queryClient,
            source,
            step.edits.map((e) => ({ ...e, value: e.previous, previous: e.value })),
          );
        enqueue(pasteItems(step));
      }
    },
    [queryClient, source, enqueue, enqueueCells, cellItems, pasteItems, exchangeKept],
  );
  const history = useEditHistory(apply);
  useEffect(() => {
    forgetKept.current = history.forgetKept;
  }, [history.forgetKept]);

  /** The grid has already shown the edits; they are recorded and saved. */
  const onEdit = (edits: CellEdit[]) => {
    if (edits.length === 0) return;
    history.record({ kind: 'cells', edits });
    enqueueCells(edits, cellItems);
  };
  /** A paste that grows the table: one step, saved in as many calls as it takes. */
  const onPaste = (plan: PastePlan) => {
    const step: PasteStep = {
      kind: 'paste',
      edits: plan.edits,
      newColumns: plan.newColumns,
      newRows: plan.newRows,
      saved: { keys: new Map(), rowIds: [] },
    };
    history.record(step);
    enqueue(pasteItems(step));
  };
  const onMoveRow = (rowId: number, toRowId: number) => {
    const step: EditStep = { kind: 'moveRow', rowId, toRowId };
    history.record(step);
    apply(step);
  };

  /** Row and column actions: saved in turn with the edits; the table is read again after. */
  const send = (changes: TableChange[]) =>
    new Promise<Changed>((resolve, reject) => {
      forgetKept.current();
      enqueue([
        {
          changes: () => changes,
          cells: [],
          cellsOnly: false,
          size: 1,
          onFail: 'drop',
          onSaved: async (answer) => {
            if (answer) resolve(answer);
            await reload();
          },
          onDropped: reject,
        },
      ]);
    });

  const discard = () => {
    saving.discard();
    history.clear();
    void reload();
  };

  return { ...saving, discard, send, history, onEdit, onPaste, onMoveRow };
}

import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TableChange } from '../../../shared/static-tables';
import { unsavedKey, type CellEdit } from '../../components/data-grid/types';
import { errorMessage } from '../../lib/error-message';
import { trpcClient } from '../../trpc';
import type { SaveState } from './save-indicator';

export type Changed = Awaited<ReturnType<typeof trpcClient.staticTables.change.mutate>>;

/** One call to the changes API, waiting its turn. */
export interface QueueItem {
  /** Built when sent, so it can use what earlier calls answered (keys of added columns, row ids). */
  changes: () => TableChange[];
  /** Cells it writes, shown over the loaded rows until saved; edited in place while it waits. */
  cells: CellEdit[];
  /** Only cell edits: a later edit of the same cell may change its value while it waits. */
  cellsOnly: boolean;
  /** Cells and rows it writes, for the progress of a large paste. */
  size: number;
  /**
   * What a failed call does: `keep` stays first in the queue (typed and pasted values: nothing is
   * lost, Retry sends it again); `drop` is given up with a message (row and column actions).
   */
  onFail: 'keep' | 'drop';
  /** After the call is saved; `null` when there was nothing left to send (e.g. undoing a paste never saved). */
  onSaved?: (answer: Changed | null) => void | Promise<void>;
  onDropped?: (error: unknown) => void;
}

export interface SaveProgress {
  done: number;
  total: number;
}

/**
 * The editor's saving: calls to the changes API one at a time, in the order the changes were made
 * (a row move names rows by the ids the moves before it left). A call that fails with values in it
 * stops the queue: the values stay shown, marked unsaved, until Retry sends them or Discard gives
 * them up; editing such a cell again changes the value waiting to be sent.
 */
export function useSaveQueue(id: string) {
  const queue = useRef<QueueItem[]>([]);
  const running = useRef(false);
  const inFlight = useRef<QueueItem | null>(null);
  const progress = useRef<SaveProgress>({ done: 0, total: 0 });
  const [failure, setFailure] = useState<string | null>(null);
  const failed = useRef(false);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  // What the screen shows of the queue, taken again whenever it changes.
  const [snapshot, setSnapshot] = useState<Snapshot>(EMPTY);
  const bump = () => setSnapshot(snapshotOf(queue.current, progress.current));

  const pump = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    while (queue.current.length > 0 && !failed.current) {
      const item = queue.current[0]!;
      inFlight.current = item;
      setSaveState('saving');
      try {
        const changes = item.changes();
        const answer = changes.length > 0 ? await trpcClient.staticTables.change.mutate({ id, changes }) : null;
        queue.current.shift();
        progress.current.done += item.size;
        // What follows a save (reading the rows again) cannot make the saved call count as failed.
        await Promise.resolve(item.onSaved?.(answer)).catch(() => undefined);
      } catch (error) {
        if (item.onFail === 'drop') {
          queue.current.shift();
          progress.current.total -= item.size;
          notifications.show({ color: 'red', title: 'Could not save the change', message: errorMessage(error) });
          item.onDropped?.(error);
        } else {
          failed.current = true;
          setFailure(errorMessage(error));
          setSaveState('error');
          notifications.show({
            color: 'red',
            title: 'Could not save the change',
            message: `${sentence(errorMessage(error))} The values stay on screen, marked unsaved, until you retry.`,
          });
        }
      } finally {
        inFlight.current = null;
        bump();
      }
    }
    running.current = false;
    if (queue.current.length === 0) {
      progress.current = { done: 0, total: 0 };
      setSaveState((s) => (s === 'error' ? s : 'saved'));
      bump();
    }
  }, [id]);

  const enqueue = useCallback(
    (items: QueueItem[]) => {
      if (items.length === 0) return;
      queue.current.push(...items);
      progress.current.total += items.reduce((n, i) => n + i.size, 0);
      bump();
      if (!failed.current) void pump();
    },
    [pump],
  );

  /**
   * Cell edits: a cell still waiting in the cell-only calls at the end of the queue takes its new
   * value there (so a value the server refused can be corrected before Retry); the rest is queued.
   */
  const enqueueCells = useCallback(
    (edits: CellEdit[], batches: (edits: CellEdit[]) => QueueItem[]) => {
      const waiting: QueueItem[] = [];
      for (let i = queue.current.length - 1; i >= 0; i--) {
        const item = queue.current[i]!;
        if (!item.cellsOnly || item === inFlight.current) break;
        waiting.push(item);
      }
      const rest = edits.filter((edit) => {
        const key = unsavedKey(edit.rowId, edit.columnKey);
        for (const item of waiting) {
          const same = item.cells.find((c) => unsavedKey(c.rowId, c.columnKey) === key);
          if (same) {
            same.value = edit.value;
            return false;
          }
        }
        return true;
      });
      if (rest.length < edits.length) bump();
      enqueue(batches(rest));
    },
    [enqueue],
  );

  const retry = useCallback(() => {
    failed.current = false;
    setFailure(null);
    void pump();
  }, [pump]);

  /** Gives up every change not saved yet; the caller reads the table again. */
  const discard = useCallback(() => {
    for (const item of queue.current) item.onDropped?.(new Error('Discarded'));
    queue.current = [];
    progress.current = { done: 0, total: 0 };
    failed.current = false;
    setFailure(null);
    setSaveState('idle');
    bump();
  }, []);

  const { unsaved, unsavedCount } = snapshot;
  // Leaving or reloading the page with changes not saved asks first (the browser's own prompt).
  const pending = unsavedCount > 0;
  useEffect(() => {
    if (!pending) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [pending]);

  return {
    enqueue,
    enqueueCells,
    retry,
    discard,
    failure,
    saveState,
    setSaveState,
    unsaved,
    unsavedCount,
    progress: snapshot.progress,
  };
}

interface Snapshot {
  /** Values waiting to be saved, by `unsavedKey`: shown over the loaded rows. */
  unsaved: ReadonlyMap<string, string | null>;
  unsavedCount: number;
  progress: SaveProgress | null;
}
const EMPTY: Snapshot = { unsaved: new Map(), unsavedCount: 0, progress: null };

function snapshotOf(queue: readonly QueueItem[], progress: SaveProgress): Snapshot {
  const unsaved = new Map<string, string | null>();
  for (const item of queue) for (const c of item.cells) unsaved.set(unsavedKey(c.rowId, c.columnKey), c.value);
  return {
    unsaved,
    unsavedCount: queue.reduce((n, i) => n + i.size, 0),
    progress: progress.total > 0 ? { ...progress } : null,
  };
}

/** A message as a sentence, so another can follow it. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

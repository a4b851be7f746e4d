import { useCallback, useEffect, useState } from 'react';
import type { NewColumn } from '../../components/data-grid/paste-plan';
import type { CellEdit } from '../../components/data-grid/types';

/**
 * A paste that grew the table (`paste`), or its undoing (`unpaste`, which removes the rows and
 * columns it added and puts the earlier values back). Both share `saved`, filled in as the paste is
 * saved: the key the table gave each new column (by its stand-in key) and the ids of added rows.
 */
export interface PasteStep {
  kind: 'paste' | 'unpaste';
  edits: CellEdit[];
  newColumns: NewColumn[];
  newRows: Record<string, string | null>[];
  saved: { keys: Map<string, string>; rowIds: number[] };
}

/**
 * One undoable step: a batch of cell edits (a typed cell, a clear, a fill, a paste), a row move, a
 * growing paste, or an import or type change, undone by exchanging the table with the copy the
 * server kept of it (`token`).
 */
export type EditStep =
  | { kind: 'cells'; edits: CellEdit[] }
  | { kind: 'moveRow'; rowId: number; toRowId: number }
  | PasteStep
  | { kind: 'kept'; token: string };

/**
 * The step that undoes `step`: cell edits put the previous values back; a row move is undone by
 * the move back, since the moved row took the id of the row whose place it took.
 */
export function invertStep(step: EditStep): EditStep {
  // Exchanging the table and its kept copy is its own inverse.
  if (step.kind === 'kept') return step;
  if (step.kind === 'moveRow') return { kind: 'moveRow', rowId: step.toRowId, toRowId: step.rowId };
  if (step.kind === 'paste' || step.kind === 'unpaste')
    return { ...step, kind: step.kind === 'paste' ? 'unpaste' : 'paste' };
  return { kind: 'cells', edits: step.edits.map((e) => ({ ...e, value: e.previous, previous: e.value })) };
}

/**
 * Undo and redo of the editor's steps. Ctrl/Cmd+Z undoes; Ctrl/Cmd+Shift+Z or Ctrl/Cmd+Y redoes,
 * except while typing in a text field. Each step's row ids are those of the table as it was right
 * after the step, which undoing the steps above it restores exactly, so they never need rewriting.
 */
export function useEditHistory(apply: (step: EditStep) => void) {
  const [past, setPast] = useState<EditStep[]>([]);
  const [future, setFuture] = useState<EditStep[]>([]);

  const record = useCallback((step: EditStep) => {
    // A change makes the server drop the kept copy: a kept step, and the steps before it, are gone.
    setPast((p) => [...afterKept(p), step]);
    setFuture([]);
  }, []);

  /** Another change (one the history does not record) made the server drop the kept copy. */
  const forgetKept = useCallback(() => {
    setPast((p) => afterKept(p));
    setFuture((f) => (f.some((s) => s.kind === 'kept') ? [] : f));
  }, []);

  const undo = useCallback(() => {
    const step = past.at(-1);
    if (!step) return;
    setPast((p) => p.slice(0, -1));
    setFuture((f) => [...f, step]);
    apply(invertStep(step));
  }, [past, apply]);

  const redo = useCallback(() => {
    const step = future.at(-1);
    if (!step) return;
    setFuture((f) => f.slice(0, -1));
    setPast((p) => [...p, step]);
    apply(step);
  }, [future, apply]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return;
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        undo();
      } else if ((key === 'z' && event.shiftKey) || key === 'y') {
        event.preventDefault();
        redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);

  /** Forgets every step (their changes were given up unsaved). */
  const clear = useCallback(() => {
    setPast([]);
    setFuture([]);
  }, []);

  return { record, forgetKept, undo, redo, clear, canUndo: past.length > 0, canRedo: future.length > 0 };
}

/** The steps after the last kept step (they were made on the table as the import or type change left it). */
function afterKept(steps: EditStep[]): EditStep[] {
  const last = steps.findLastIndex((s) => s.kind === 'kept');
  return last < 0 ? steps : steps.slice(last + 1);
}

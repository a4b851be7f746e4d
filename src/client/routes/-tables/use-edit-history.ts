import { useCallback, useEffect, useState } from 'react';
import type { CellEdit } from '../../components/data-grid/types';

/** One undoable step: a batch of cell edits (one typed cell, one paste) or one row move. */
export type EditStep = { kind: 'cells'; edits: CellEdit[] } | { kind: 'moveRow'; rowId: number; toRowId: number };

/**
 * The step that undoes `step`: cell edits put the previous values back; a row move is undone by
 * the move back, since the moved row took the id of the row whose place it took.
 */
export function invertStep(step: EditStep): EditStep {
  if (step.kind === 'moveRow') return { kind: 'moveRow', rowId: step.toRowId, toRowId: step.rowId };
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
    setPast((p) => [...p, step]);
    setFuture([]);
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

  return { record, undo, redo, canUndo: past.length > 0, canRedo: future.length > 0 };
}

import { useCallback, useEffect, useState } from 'react';
import type { CellEdit } from '../../components/data-grid/types';

/**
 * Undo and redo of cell edits: each batch (one typed cell, one paste) is one step. Ctrl/Cmd+Z
 * undoes; Ctrl/Cmd+Shift+Z or Ctrl/Cmd+Y redoes, except while typing in a text field.
 */
export function useEditHistory(apply: (edits: CellEdit[]) => void) {
  const [past, setPast] = useState<CellEdit[][]>([]);
  const [future, setFuture] = useState<CellEdit[][]>([]);

  const record = useCallback((batch: CellEdit[]) => {
    setPast((p) => [...p, batch]);
    setFuture([]);
  }, []);

  const undo = useCallback(() => {
    const batch = past.at(-1);
    if (!batch) return;
    setPast((p) => p.slice(0, -1));
    setFuture((f) => [...f, batch]);
    apply(batch.map((e) => ({ ...e, value: e.previous, previous: e.value })));
  }, [past, apply]);

  const redo = useCallback(() => {
    const batch = future.at(-1);
    if (!batch) return;
    setFuture((f) => f.slice(0, -1));
    setPast((p) => [...p, batch]);
    apply(batch);
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

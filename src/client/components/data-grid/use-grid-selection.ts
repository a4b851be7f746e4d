import { useCallback, useEffect, useMemo, useRef, useState, type SetStateAction } from 'react';
import { inRange, rangeOf, single, type CellRange, type Selection } from './range';
import type { CellPosition } from './types';

/**
 * The grid's selection: an active cell and the range it stretches to. A click selects a cell,
 * Shift+click stretches the range to it, and dragging with the button held stretches it as the
 * pointer passes over cells.
 */
export function useGridSelection() {
  const [selection, setSelection] = useState<Selection | null>(null);
  const dragging = useRef(false);

  useEffect(() => {
    const stop = () => {
      dragging.current = false;
    };
    window.addEventListener('mouseup', stop);
    return () => window.removeEventListener('mouseup', stop);
  }, []);

  /** The active cell; setting it (arrows, row moves) leaves no range. */
  const selected = selection?.active ?? null;
  const setSelected = useCallback((next: SetStateAction<CellPosition | null>) => {
    setSelection((s) => {
      const p = typeof next === 'function' ? next(s?.active ?? null) : next;
      return p ? single(p) : null;
    });
  }, []);
  /** Moves the far corner of the range, keeping the active cell. */
  const extendTo = useCallback((p: CellPosition) => {
    setSelection((s) => (s ? { active: s.active, focus: p } : single(p)));
  }, []);

  const onCellMouseDown = useCallback(
    (p: CellPosition, event: React.MouseEvent) => {
      if (event.button !== 0) {
        // A right click inside the range keeps it (the cell menu acts on the cell); outside, selects.
        setSelection((s) => (s && inRange(rangeOf(s), p) ? s : single(p)));
        return;
      }
      if (event.shiftKey) extendTo(p);
      else setSelection(single(p));
      dragging.current = true;
    },
    [extendTo],
  );
  const onCellMouseEnter = useCallback(
    (p: CellPosition) => {
      if (dragging.current) extendTo(p);
    },
    [extendTo],
  );

  const range: CellRange | null = useMemo(() => (selection ? rangeOf(selection) : null), [selection]);
  return { selection, setSelection, selected, setSelected, extendTo, range, onCellMouseDown, onCellMouseEnter };
}

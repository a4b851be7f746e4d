import { useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { isEditableValue, splitPaste } from './format-cell';
import type { CellEdit, CellPosition, GridColumn, GridRow } from './types';

export type Editing = (CellPosition & { draft: string }) | null;

interface CellEditingOptions {
  rows: GridRow[];
  columns: GridColumn[];
  valueAt: (p: CellPosition) => unknown;
  selected: CellPosition | null;
  setSelected: Dispatch<SetStateAction<CellPosition | null>>;
  /** Keeps a row in view after the selection moves to it. */
  scrollToRow: (rowIndex: number) => void;
  scroller: RefObject<HTMLDivElement | null>;
  /** Absent in read-only grids: nothing is edited or pasted. */
  applyEdits?: (edits: CellEdit[]) => void;
  /** Alt+ArrowUp / Alt+ArrowDown on a selected cell: move its row one place. */
  onMoveRow?: (rowIndex: number, step: -1 | 1) => void;
}

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * The keyboard side of the grid: arrows move the selection, Enter or typing edits a cell, Escape,
 * Enter or blur commits, Delete clears, a pasted block of tab- and newline-separated text fills
 * the cells from the selected one, and Alt+arrows move rows.
 */
export function useCellEditing(options: CellEditingOptions) {
  const { rows, columns, valueAt, selected, setSelected, applyEdits } = options;
  const [editing, setEditing] = useState<Editing>(null);

  const canEdit = (p: CellPosition) =>
    !!applyEdits && isEditableValue(valueAt(p), columns[p.columnIndex]?.type ?? 'Text');
  const startEdit = (p: CellPosition, draft?: string) => {
    if (!canEdit(p)) return;
    const current = valueAt(p);
    setEditing({ ...p, draft: draft ?? (current === null || current === undefined ? '' : String(current)) });
  };
  const commit = () => {
    if (!editing) return;
    const row = rows[editing.rowIndex];
    const column = columns[editing.columnIndex];
    const previous = valueAt(editing);
    setEditing(null);
    options.scroller.current?.focus();
    if (!row || !column || !applyEdits) return;
    const value = editing.draft === '' ? null : editing.draft;
    if ((previous ?? null) === value) return;
    applyEdits([{ rowId: row._row_id, columnKey: column.key, value, previous: (previous ?? null) as string | null }]);
  };

  const move = (dRow: number, dCol: number) => {
    setSelected((p) => {
      const from = p ?? { rowIndex: 0, columnIndex: 0 };
      const next = {
        rowIndex: Math.max(0, Math.min(rows.length - 1, from.rowIndex + dRow)),
        columnIndex: Math.max(0, Math.min(columns.length - 1, from.columnIndex + dCol)),
      };
      options.scrollToRow(next.rowIndex);
      return next;
    });
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (editing) {
      if (event.key === 'Escape' || event.key === 'Enter') {
        event.preventDefault();
        commit();
        if (event.key === 'Enter') move(1, 0);
      }
      return;
    }
    const delta = ARROWS[event.key];
    if (delta && event.altKey && delta[0] !== 0 && selected && options.onMoveRow) {
      event.preventDefault();
      options.onMoveRow(selected.rowIndex, delta[0] as -1 | 1);
    } else if (delta) {
      event.preventDefault();
      move(...delta);
    } else if (selected && event.key === 'Enter') {
      event.preventDefault();
      startEdit(selected);
    } else if (selected && (event.key === 'Delete' || event.key === 'Backspace') && canEdit(selected)) {
      event.preventDefault();
      setEditing({ ...selected, draft: '' });
    } else if (selected && event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      startEdit(selected, event.key);
    }
  };

  const onPaste = (event: React.ClipboardEvent) => {
    if (editing || !selected || !applyEdits) return;
    event.preventDefault();
    const block = splitPaste(event.clipboardData.getData('text/plain'));
    const edits: CellEdit[] = [];
    block.forEach((cells, r) =>
      cells.forEach((text, c) => {
        const p = { rowIndex: selected.rowIndex + r, columnIndex: selected.columnIndex + c };
        const row = rows[p.rowIndex];
        const column = columns[p.columnIndex];
        if (!row || !column || !canEdit(p)) return;
        const previous = (valueAt(p) ?? null) as string | null;
        edits.push({ rowId: row._row_id, columnKey: column.key, value: text === '' ? null : text, previous });
      }),
    );
    applyEdits(edits);
  };

  return { editing, setEditing, startEdit, commit, onKeyDown, onPaste };
}

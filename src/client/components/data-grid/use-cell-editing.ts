import { notifications } from '@mantine/notifications';
import { useRef, useState, type RefObject } from 'react';
import { isEditableValue } from './format-cell';
import { cellsOf, clampMove, tabMove, type CellRange } from './range';
import type { CellEdit, CellPosition, GridColumn, GridRow } from './types';
import type { useGridSelection } from './use-grid-selection';

/**
 * A cell being edited. `typed`: editing began by typing over the cell, so arrows commit and move
 * (as in spreadsheets); `inPlace`: begun by F2, Enter or a double click, so arrows move the caret.
 */
export type Editing = (CellPosition & { draft: string; mode: 'typed' | 'inPlace' }) | null;

interface CellEditingOptions {
  rows: GridRow[];
  columns: GridColumn[];
  valueAt: (p: CellPosition) => unknown;
  selection: ReturnType<typeof useGridSelection>;
  /** Keeps a row in view after the selection moves to it. */
  scrollToRow: (rowIndex: number) => void;
  scroller: RefObject<HTMLDivElement | null>;
  /** Absent in read-only grids: nothing is edited, cleared or filled. */
  applyEdits?: (edits: CellEdit[]) => void;
  /** Alt+ArrowUp / Alt+ArrowDown on a selected cell: move its row one place. */
  onMoveRow?: (rowIndex: number, step: -1 | 1) => void;
  /** Ctrl/Cmd+C: the clipboard side copies the range. */
  onCopy: () => void;
  /** A value typed but not saved (e.g. refused by the server) stays editable, so it can be corrected. */
  isUnsaved?: (p: CellPosition) => boolean;
}

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

const cellText = (value: unknown) => (value === null || value === undefined ? null : String(value));

/**
 * The keyboard side of the grid, as in spreadsheets:
 * - not editing: arrows move (Shift stretches the range, Ctrl/Cmd jumps to the edge), Tab and
 *   Shift+Tab move right and left, wrapping at the row's end, so focus stays in the grid (Escape
 *   drops the selection, after which Tab leaves it); Enter, F2 or a double click edit in place;
 *   typing replaces the cell; Delete or Backspace clears the range; Ctrl/Cmd+D fills the range's
 *   first row down; Ctrl/Cmd+A selects every loaded cell; Alt+arrows move the row.
 * - editing: Enter commits and moves down (Shift: up; after a run of Tabs, back to the column the
 *   run began in), Tab commits and moves right (Shift: left), Escape or blur commits and stays,
 *   arrows commit and move when editing began by typing.
 * Every clear, fill and typed cell reaches `applyEdits` as one batch: one undoable step.
 */
export function useCellEditing(options: CellEditingOptions) {
  const { rows, columns, valueAt, selection, applyEdits } = options;
  const { selected, setSelected, range } = selection;
  const [editing, setEditingState] = useState<Editing>(null);
  // The edit in progress, read by commit: the input's blur and a key may both commit it, once.
  const current = useRef<Editing>(null);
  const setEditing = (next: Editing | ((e: Editing) => Editing)) => {
    const value = typeof next === 'function' ? next(current.current) : next;
    current.current = value;
    setEditingState(value);
  };
  // The column a run of Tabs began in: Enter after it goes back there on the next row.
  const tabRunStart = useRef<number | null>(null);

  const canEdit = (p: CellPosition) =>
    !!applyEdits && (isEditableValue(valueAt(p), columns[p.columnIndex]?.type ?? 'Text') || !!options.isUnsaved?.(p));
  const startEdit = (p: CellPosition, mode: 'typed' | 'inPlace', draft?: string) => {
    if (!canEdit(p)) return;
    setSelected(p);
    setEditing({ ...p, mode, draft: draft ?? cellText(valueAt(p)) ?? '' });
  };
  const commit = () => {
    const edit = current.current;
    if (!edit) return;
    setEditing(null);
    options.scroller.current?.focus();
    const row = rows[edit.rowIndex];
    const column = columns[edit.columnIndex];
    if (!row || !column || !applyEdits) return;
    const value = edit.draft === '' ? null : edit.draft;
    const previous = cellText(valueAt(edit));
    if (previous === value) return;
    applyEdits([{ rowId: row._row_id, columnKey: column.key, value, previous }]);
  };

  const goTo = (p: CellPosition) => {
    setSelected(p);
    options.scrollToRow(p.rowIndex);
  };
  const move = (dRow: number, dCol: number) => {
    const from = selected ?? { rowIndex: 0, columnIndex: 0 };
    goTo(selected ? clampMove(from, dRow, dCol, rows.length, columns.length) : from);
  };
  const tab = (step: 1 | -1) => {
    const from = selected ?? { rowIndex: 0, columnIndex: 0 };
    if (tabRunStart.current === null) tabRunStart.current = from.columnIndex;
    goTo(tabMove(from, step, rows.length, columns.length));
  };
  const enterMove = (up: boolean) => {
    const from = selected ?? { rowIndex: 0, columnIndex: 0 };
    const column = !up && tabRunStart.current !== null ? tabRunStart.current : from.columnIndex;
    tabRunStart.current = null;
    const rowIndex = Math.max(0, Math.min(rows.length - 1, from.rowIndex + (up ? -1 : 1)));
    goTo({ rowIndex, columnIndex: column });
  };

  /**
   * Edits that set every editable cell of `r` by `valueFor` (cells that would not change are left
   * out); cells that may not be edited are counted and said, not passed over in silence.
   */
  const editRange = (r: CellRange, valueFor: (p: CellPosition) => string | null) => {
    let kept = 0;
    const edits = cellsOf(r).flatMap((p) => {
      const row = rows[p.rowIndex];
      const column = columns[p.columnIndex];
      if (!row || !column) return [];
      const previous = cellText(valueAt(p));
      const value = valueFor(p);
      if (previous === value) return [];
      if (!canEdit(p)) {
        kept += 1;
        return [];
      }
      return [{ rowId: row._row_id, columnKey: column.key, value, previous }];
    });
    if (edits.length > 0) applyEdits?.(edits);
    if (kept > 0) {
      notifications.show({
        color: 'yellow',
        title: kept === 1 ? '1 cell not changed' : `${kept} cells not changed`,
        message: 'Only text or empty cells can be changed here.',
      });
    }
  };
  const clearRange = () => {
    if (range) editRange(range, () => null);
  };
  const fillDown = () => {
    if (!range || range.bottom === range.top) return;
    const below = { ...range, top: range.top + 1 };
    editRange(below, (p) => cellText(valueAt({ rowIndex: range.top, columnIndex: p.columnIndex })));
  };

  const onEditingKey = (event: React.KeyboardEvent, edit: NonNullable<Editing>) => {
    const delta = ARROWS[event.key];
    const plain = !event.altKey && !event.ctrlKey && !event.metaKey;
    if (event.key === 'Enter' && plain) {
      event.preventDefault();
      commit();
      enterMove(event.shiftKey);
    } else if (event.key === 'Tab' && plain) {
      event.preventDefault();
      commit();
      tab(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      commit();
    } else if (event.key === 'F2') {
      event.preventDefault();
      setEditing({ ...edit, mode: 'inPlace' });
    } else if (delta && edit.mode === 'typed' && plain && !event.shiftKey) {
      event.preventDefault();
      commit();
      tabRunStart.current = null;
      move(...delta);
    } else if (event.target === options.scroller.current && event.key.length === 1 && plain) {
      // A key that reached the grid before the text box took focus still belongs to the draft.
      event.preventDefault();
      setEditing({ ...edit, draft: edit.draft + event.key });
    }
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const edit = current.current;
    if (edit) {
      onEditingKey(event, edit);
      return;
    }
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const delta = ARROWS[event.key];
    if (delta && event.altKey && delta[0] !== 0 && selected && options.onMoveRow) {
      event.preventDefault();
      options.onMoveRow(selected.rowIndex, delta[0] as -1 | 1);
    } else if (delta && event.shiftKey && selected) {
      event.preventDefault();
      const focus = selection.selection?.focus ?? selected;
      const to = mod
        ? edgeOf(focus, delta, rows.length, columns.length)
        : clampMove(focus, delta[0], delta[1], rows.length, columns.length);
      selection.extendTo(to);
      options.scrollToRow(to.rowIndex);
    } else if (delta) {
      event.preventDefault();
      tabRunStart.current = null;
      if (mod && selected) goTo(edgeOf(selected, delta, rows.length, columns.length));
      else move(...delta);
    } else if (event.key === 'Tab' && selected) {
      event.preventDefault();
      tab(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape' && selected) {
      event.preventDefault();
      const stretched = range && (range.bottom > range.top || range.right > range.left);
      setSelected(stretched ? selected : null);
    } else if (mod && key === 'c' && selected) {
      // Not prevented: the browser's copy event carries the range too (clipboard side).
      options.onCopy();
    } else if (mod && key === 'a' && rows.length > 0 && columns.length > 0) {
      event.preventDefault();
      selection.setSelection({
        active: { rowIndex: 0, columnIndex: 0 },
        focus: { rowIndex: rows.length - 1, columnIndex: columns.length - 1 },
      });
    } else if (!selected) {
      return;
    } else if (event.key === 'Enter' && event.shiftKey) {
      event.preventDefault();
      enterMove(true);
    } else if ((event.key === 'Enter' && !mod) || event.key === 'F2') {
      event.preventDefault();
      tabRunStart.current = null;
      // A cell that cannot be edited (a read-only grid, a typed value): Enter moves on instead.
      if (canEdit(selected)) startEdit(selected, 'inPlace');
      else if (event.key === 'Enter') enterMove(false);
    } else if (!applyEdits) {
      return;
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      clearRange();
    } else if (mod && key === 'd') {
      event.preventDefault();
      fillDown();
    } else if (event.key.length === 1 && !mod && !event.altKey) {
      event.preventDefault();
      startEdit(selected, 'typed', event.key);
    }
  };

  return {
    editing,
    setDraft: (draft: string) => setEditing((e) => (e ? { ...e, draft } : e)),
    startEdit,
    commit,
    onKeyDown,
    /** The grid took the focus with nothing selected (Tab into it): its first cell becomes active, visibly. */
    onFocus: (event: React.FocusEvent) => {
      if (event.target === event.currentTarget && !selected && rows.length > 0 && columns.length > 0) {
        setSelected({ rowIndex: 0, columnIndex: 0 });
      }
    },
    canEdit,
  };
}

/** Ctrl/Cmd+arrow: the first or last row or column in that direction. */
function edgeOf(p: CellPosition, [dRow, dCol]: [number, number], rows: number, columns: number): CellPosition {
  return {
    rowIndex: dRow < 0 ? 0 : dRow > 0 ? rows - 1 : p.rowIndex,
    columnIndex: dCol < 0 ? 0 : dCol > 0 ? columns - 1 : p.columnIndex,
  };
}

import type { CellPosition } from './types';

/** A block of cells, inclusive on all sides. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * The selection: the active cell (where typing, paste and fill start) and the cell the range
 * stretches to (Shift+click, Shift+arrows, drag). Without a stretch both are the same cell.
 */
export interface Selection {
  active: CellPosition;
  focus: CellPosition;
}

export const single = (p: CellPosition): Selection => ({ active: p, focus: p });

export function rangeOf(s: Selection): CellRange {
  return {
    top: Math.min(s.active.rowIndex, s.focus.rowIndex),
    bottom: Math.max(s.active.rowIndex, s.focus.rowIndex),
    left: Math.min(s.active.columnIndex, s.focus.columnIndex),
    right: Math.max(s.active.columnIndex, s.focus.columnIndex),
  };
}

export const inRange = (r: CellRange, p: CellPosition) =>
  p.rowIndex >= r.top && p.rowIndex <= r.bottom && p.columnIndex >= r.left && p.columnIndex <= r.right;

export const rangeSize = (r: CellRange) => ({ rows: r.bottom - r.top + 1, columns: r.right - r.left + 1 });

/** Every cell of a range, row by row. */
export function cellsOf(r: CellRange): CellPosition[] {
  const out: CellPosition[] = [];
  for (let rowIndex = r.top; rowIndex <= r.bottom; rowIndex++) {
    for (let columnIndex = r.left; columnIndex <= r.right; columnIndex++) out.push({ rowIndex, columnIndex });
  }
  return out;
}

/** A position moved by a step and kept inside a grid of `rows` × `columns`. */
export function clampMove(p: CellPosition, dRow: number, dCol: number, rows: number, columns: number): CellPosition {
  return {
    rowIndex: Math.max(0, Math.min(rows - 1, p.rowIndex + dRow)),
    columnIndex: Math.max(0, Math.min(columns - 1, p.columnIndex + dCol)),
  };
}

/**
 * Tab and Shift+Tab: one column right or left, wrapping to the start of the next row (or the end of
 * the row before), as spreadsheets do; the first and last cells stay where they are.
 */
export function tabMove(p: CellPosition, step: 1 | -1, rows: number, columns: number): CellPosition {
  const at = p.rowIndex * columns + p.columnIndex + step;
  if (at < 0 || at >= rows * columns) return p;
  return { rowIndex: Math.floor(at / columns), columnIndex: at % columns };
}

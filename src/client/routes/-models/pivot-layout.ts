/**
 * How the pivot grid lays out the server's PivotLayout: column widths, the grouped multi-row header
 * built from each column's `path`, and how a cell's value reads. Pure, so the grid stays structure.
 */
import {
  PIVOT_TOTAL_LABEL,
  type PivotCellValue,
  type PivotLayoutColumn,
  type PivotRow,
  type PivotValueHeader,
} from '../../../shared/pivots';

import { formatPivotValue, valueLook } from '../../../shared/pivot-values';

export { formatPivotValue, valueLook, type PivotValueLook } from '../../../shared/pivot-values';

/** A null column-field value in a header, as the export writes it. */
export const EMPTY_KEY_LABEL = '(empty)';

/** Cell padding, borders and room for rounding of the measured text. */
const PADDING_PX = 24;
const HEADER_FONT = '600 12px';
const CELL_FONT = '600 13px';

let measurer: { context: CanvasRenderingContext2D; family: string } | null | undefined;

/** The text's width in px in the page's font, or an estimate where there is no canvas. */
function textWidth(text: string, font: string): number {
  if (measurer === undefined) {
    const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    measurer = context ? { context, family: getComputedStyle(document.body).fontFamily } : null;
  }
  if (!measurer) return text.length * 7.5;
  measurer.context.font = `${font} ${measurer.family}`;
  return measurer.context.measureText(text).width;
}

const MAX_GROUP_PX = 320;

/**
 * Widths that fit each column's header label and its cells in `sample` (the first chunk), within
 * bounds that keep the grid dense; a group header too wide for the columns under it widens them
 * evenly.
 */
export function pivotColumnWidths(
  columns: readonly PivotLayoutColumn[],
  values: readonly PivotValueHeader[],
  sample: readonly PivotRow[],
): number[] {
  const widths = columns.map((column) => {
    let widest = textWidth(column.path.at(-1) ?? EMPTY_KEY_LABEL, HEADER_FONT);
    for (const row of sample) {
      const value = row.cells[column.key] ?? null;
      const text =
        column.kind === 'row-field'
          ? String(value ?? EMPTY_KEY_LABEL)
          : formatPivotValue(value, valueLook(values, column));
      widest = Math.max(widest, textWidth(text, CELL_FONT));
    }
    const [min, max] = column.kind === 'row-field' ? [140, 320] : [90, 260];
    return Math.min(max, Math.max(min, Math.ceil(widest + PADDING_PX)));
  });
  for (const cell of headerCells(columns).cells) {
    if (cell.isLeaf) continue;
    const need = Math.min(MAX_GROUP_PX, textWidth(cell.text, HEADER_FONT) + PADDING_PX);
    const have = widths.slice(cell.column, cell.column + cell.columnSpan).reduce((a, b) => a + b, 0);
    if (have >= need) continue;
    const extra = (need - have) / cell.columnSpan;
    for (let i = cell.column; i < cell.column + cell.columnSpan; i++) widths[i] = Math.ceil(widths[i]! + extra);
  }
  return widths;
}

export interface HeaderCell {
  key: string;
  text: string;
  /** 0-based grid placement: the first header row and column it covers, and how many of each. */
  row: number;
  rowSpan: number;
  column: number;
  columnSpan: number;
  kind: PivotLayoutColumn['kind'];
  /** The last header row: the row-field names and the value labels right above the cells. */
  isLeaf: boolean;
}

interface Part {
  text: string;
  row: number;
  rowSpan: number;
  /** Equal for neighbours that show the same header: kind, placement and the path up to here. */
  identity: string;
}

/**
 * Where each part of a column's path goes in a header `depth` rows high. The last part sits on the
 * bottom row; the parts before it fill the rows from the top, the last of them stretching down
 * (a row field's only part spans the whole height; 'Total' spans above the value labels).
 */
function partsOf(column: PivotLayoutColumn, depth: number): Part[] {
  const path = column.path.map((part) => part ?? EMPTY_KEY_LABEL);
  if (path.length <= 1)
    return [{ text: path[0] ?? '', row: 0, rowSpan: depth, identity: `${column.kind}:${column.key}` }];
  const parts: Part[] = [];
  path.forEach((text, index) => {
    const isLast = index === path.length - 1;
    const row = isLast ? depth - 1 : index;
    const rowSpan = isLast ? 1 : index === path.length - 2 ? depth - 1 - index : 1;
    // The leaf is never shared; group headers are shared by neighbours with the same path prefix.
    const identity = isLast
      ? `${column.kind}:${column.key}`
      : `${column.kind}:${JSON.stringify(column.path.slice(0, index + 1))}`;
    parts.push({ text, row, rowSpan, identity });
  });
  return parts;
}

/** The grouped header: neighbouring columns with equal path prefixes share one cell per header row. */
export function headerCells(columns: readonly PivotLayoutColumn[]): { depth: number; cells: HeaderCell[] } {
  const depth = Math.max(1, ...columns.map((c) => c.path.length));
  const cells: (HeaderCell & { identity: string })[] = [];
  const open = new Map<number, HeaderCell & { identity: string }>();
  columns.forEach((column, index) => {
    for (const part of partsOf(column, depth)) {
      const previous = open.get(part.row);
      if (previous && previous.identity === part.identity && previous.column + previous.columnSpan === index) {
        previous.columnSpan += 1;
        continue;
      }
      const cell = {
        key: `${index}:${part.row}`,
        text: part.text,
        row: part.row,
        rowSpan: part.rowSpan,
        column: index,
        columnSpan: 1,
        kind: column.kind,
        isLeaf: part.row + part.rowSpan === depth,
        identity: part.identity,
      };
      open.set(part.row, cell);
      cells.push(cell);
    }
  });
  return { depth, cells: cells.map(({ identity: _identity, ...cell }) => cell) };
}

/**
 * What a row-field cell shows: its value, 'Total' in the first cell a total row is not grouped by,
 * and nothing in the cells after it. `null` stands for an empty (null) key of a detail row.
 */
export function rowFieldText(row: PivotRow, fieldIndex: number, value: PivotCellValue): string | null {
  if (row.isTotal && fieldIndex >= row.level) return fieldIndex === row.level ? PIVOT_TOTAL_LABEL : '';
  return value === null ? null : String(value);
}

/** Whether an outer row-field cell repeats the group of the row above (it is shown quieter). */
export function repeatsRowAbove(rows: readonly PivotRow[], index: number, fieldKeys: readonly string[], at: number) {
  const row = rows[index];
  const above = rows[index - 1];
  // A total row's group labels say what it totals: they stay in full.
  if (!row || !above || row.isTotal) return false;
  if (at >= fieldKeys.length - 1) return false;
  return fieldKeys.slice(0, at + 1).every((key) => row.cells[key] === above.cells[key]);
}

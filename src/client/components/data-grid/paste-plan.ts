import { isEditableValue } from './format-cell';
import type { CellRange } from './range';
import type { CellEdit, GridColumn, GridRow } from './types';

/** A column a paste adds after the last one: `key` stands for it until the table gives it one. */
export interface NewColumn {
  key: string;
  name: string;
}

/**
 * What a paste writes: cells of rows that exist (new columns named by their stand-in key), columns
 * to add after the last one and rows to add after the last one. Nothing of the pasted block is
 * left out without being counted in `skipped` (cells that hold a value of a typed column, which
 * only the column's own editing may change).
 */
export interface PastePlan {
  edits: CellEdit[];
  newColumns: NewColumn[];
  /** Values by column key (stand-in keys for new columns); blank cells are left out. */
  newRows: Record<string, string | null>[];
  skipped: number;
}

const NEW_KEY = '\u0000new:';
export const isNewColumnKey = (key: string) => key.startsWith(NEW_KEY);

/** Names for added columns: "Column N" after the existing ones, never a name already used. */
export function newColumnNames(existing: readonly string[], count: number): string[] {
  const taken = new Set(existing.map((n) => n.toLowerCase()));
  const names: string[] = [];
  for (let n = existing.length + 1; names.length < count; n++) {
    const name = `Column ${n}`;
    if (!taken.has(name.toLowerCase())) names.push(name);
  }
  return names;
}

/**
 * The block a paste writes at the range: the clipboard's block, or, when one cell was copied and a
 * range is selected, that value in every cell of the range (as spreadsheets do).
 */
export function blockFor(block: string[][], range: CellRange): string[][] {
  const one = block.length === 1 && block[0]!.length === 1;
  const many = range.bottom > range.top || range.right > range.left;
  if (!(one && many)) return block;
  const value = block[0]![0]!;
  return Array.from({ length: range.bottom - range.top + 1 }, () =>
    Array.from({ length: range.right - range.left + 1 }, () => value),
  );
}

/**
 * Plans a paste of `block` with its top-left cell at column `left` of `targetRows[0]`. `targetRows`
 * are the rows from there down as far as the table has them; block rows past them become new
 * rows, block columns past the last column new columns.
 */
export function planPaste(block: string[][], left: number, targetRows: GridRow[], columns: GridColumn[]): PastePlan {
  const width = Math.max(0, ...block.map((r) => r.length));
  const extra = Math.max(0, left + width - columns.length);
  const names = newColumnNames(
    columns.map((c) => c.name),
    extra,
  );
  const newColumns = names.map((name, i) => ({ key: `${NEW_KEY}${i}`, name }));
  const keyAt = (c: number) => columns[c]?.key ?? newColumns[c - columns.length]!.key;
  const plan: PastePlan = { edits: [], newColumns, newRows: [], skipped: 0 };
  block.forEach((cells, r) => {
    const row = targetRows[r];
    if (!row) {
      const values: Record<string, string | null> = {};
      cells.forEach((text, i) => {
        if (text !== '') values[keyAt(left + i)] = text;
      });
      plan.newRows.push(values);
      return;
    }
    cells.forEach((text, i) => {
      const c = left + i;
      const column = columns[c];
      const value = text === '' ? null : text;
      if (!column) {
        if (value !== null) plan.edits.push({ rowId: row._row_id, columnKey: keyAt(c), value, previous: null });
        return;
      }
      const current = row[column.key];
      if (!isEditableValue(current, column.type)) {
        plan.skipped += 1;
        return;
      }
      const previous = current === undefined || current === null ? null : String(current);
      if (previous !== value) plan.edits.push({ rowId: row._row_id, columnKey: column.key, value, previous });
    });
  });
  return plan;
}

/** The plan without its new columns (the user chose to paste without them). */
export function withoutNewColumns(plan: PastePlan): PastePlan {
  return {
    edits: plan.edits.filter((e) => !isNewColumnKey(e.columnKey)),
    newColumns: [],
    newRows: plan.newRows
      .map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !isNewColumnKey(key))))
      .filter((row, i) => Object.keys(row).length > 0 || Object.keys(plan.newRows[i]!).length === 0),
    skipped: plan.skipped,
  };
}

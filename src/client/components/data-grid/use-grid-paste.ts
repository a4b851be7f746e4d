import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage } from '../../lib/error-message';
import { blockFor, isNewColumnKey, planPaste, withoutNewColumns, type NewColumn, type PastePlan } from './paste-plan';
import type { CellRange, Selection } from './range';
import { parseTsv } from './tsv';
import type { CellEdit, GridColumn, GridQuery, GridRow, GridSource } from './types';

interface GridPasteOptions {
  rows: GridRow[];
  columns: GridColumn[];
  range: CellRange | null;
  /** Rows before the first loaded one, and whether rows follow the last loaded one. */
  rowOffset: number;
  hasMore: boolean;
  /** Rows per request of the grid's current mode (a chunk, or a page). */
  requestSize: number;
  source: GridSource;
  query: GridQuery;
  applyEdits?: (edits: CellEdit[]) => void;
  onPaste?: (plan: PastePlan) => void;
  /** Where the pasted block lands, to select it. */
  onPasted: (selection: Selection) => void;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Paste at the selection: the block fills from the range's top-left cell (one copied cell fills
 * the whole range). Rows below the last loaded one are read first; past the table's last row,
 * rows are added; past its last column, columns are added once the user agrees (the dialog names
 * them). What cannot be written is said, never dropped silently.
 */
export function useGridPaste(options: GridPasteOptions) {
  const [asking, setAsking] = useState<{ plan: PastePlan; selection: Selection } | null>(null);

  /** The rows after the loaded ones, `count` of them if the table has that many. */
  const rowsAfter = async (count: number): Promise<GridRow[]> => {
    const size = options.requestSize;
    const out: GridRow[] = [];
    let page = (options.rowOffset + options.rows.length) / size + 1;
    for (let more = options.hasMore; more && out.length < count; page++) {
      const read = await options.source.fetchPage({ ...options.query, page, pageSize: size });
      out.push(...read.data);
      more = read.hasMore;
    }
    return out.slice(0, count);
  };

  const write = (plan: PastePlan, selection: Selection) => {
    const { applyEdits, onPaste } = options;
    const grows = plan.newRows.length > 0 || plan.newColumns.length > 0;
    let leftOut = plan.skipped;
    if (grows && onPaste) onPaste(plan);
    else {
      const edits = plan.edits.filter((e) => !isNewColumnKey(e.columnKey));
      leftOut += plan.edits.length - edits.length + plan.newRows.reduce((n, r) => n + Object.keys(r).length, 0);
      if (edits.length) applyEdits?.(edits);
    }
    options.onPasted(selection);
    if (leftOut > 0) {
      notifications.show({
        color: 'yellow',
        title: `${plural(leftOut, 'pasted cell')} not written`,
        message: grows && !onPaste ? 'They fall outside the table.' : 'Only text or empty cells can be changed here.',
      });
    }
  };

  const paste = async (text: string) => {
    const { range, rows, columns } = options;
    if (!range || !options.applyEdits) return;
    const block = blockFor(parseTsv(text), range);
    const targets = rows.slice(range.top, range.top + block.length);
    try {
      if (targets.length < block.length) targets.push(...(await rowsAfter(block.length - targets.length)));
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not paste', message: errorMessage(error) });
      return;
    }
    const plan = planPaste(block, range.left, targets, columns);
    const width = Math.max(1, ...block.map((r) => r.length));
    const selection: Selection = {
      active: { rowIndex: range.top, columnIndex: range.left },
      focus: {
        rowIndex: Math.min(range.top + block.length, rows.length) - 1,
        columnIndex: Math.min(range.left + width, columns.length) - 1,
      },
    };
    if (plan.newColumns.length > 0 && options.onPaste) setAsking({ plan, selection });
    else write(plan, selection);
  };

  const dialog = {
    columns: asking ? (asking.plan.newColumns satisfies NewColumn[]) : null,
    onAdd: () => {
      if (asking) write(asking.plan, asking.selection);
      setAsking(null);
    },
    onWithout: () => {
      if (asking) write(withoutNewColumns(asking.plan), asking.selection);
      setAsking(null);
    },
    onCancel: () => setAsking(null),
  };
  return { paste: (text: string) => void paste(text), dialog };
}

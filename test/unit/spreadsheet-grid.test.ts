import { describe, expect, it } from 'vitest';
import {
  blockFor,
  newColumnNames,
  planPaste,
  withoutNewColumns,
} from '../../src/client/components/data-grid/paste-plan';
import { cellsOf, clampMove, inRange, rangeOf, tabMove } from '../../src/client/components/data-grid/range';
import { parseTsv, toTsv } from '../../src/client/components/data-grid/tsv';
import type { GridColumn, GridRow } from '../../src/client/components/data-grid/types';
import { batches, chunks } from '../../src/client/routes/-tables/change-batches';

describe('TSV', () => {
  it('writes plain cells as they are and quotes cells with tabs, newlines or quotes', () => {
    expect(
      toTsv([
        ['a', 'b'],
        ['', null],
      ]),
    ).toBe('a\tb\n\t');
    expect(toTsv([['tab\there', 'line\nbreak', 'say "hi"', 'cr\rhere']])).toBe(
      '"tab\there"\t"line\nbreak"\t"say ""hi"""\t"cr\rhere"',
    );
  });

  it('reads back what it writes, whatever the cells hold', () => {
    const rows = [
      ['North', '1200', ''],
      ['a\tb', 'x\ny', '"quoted"'],
      ['"', '""', 'end"'],
      ['', '', ''],
      ['last', '\r\n', ' spaced '],
    ];
    expect(parseTsv(toTsv(rows))).toEqual(rows);
  });

  it('reads what spreadsheets put on the clipboard: CRLF, a trailing newline, ragged rows', () => {
    expect(parseTsv('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseTsv('one')).toEqual([['one']]);
    expect(parseTsv('a\n\nb')).toEqual([['a'], [''], ['b']]);
    expect(parseTsv('a\tb\nc')).toEqual([['a', 'b'], ['c']]);
    expect(parseTsv('\t')).toEqual([['', '']]);
    expect(parseTsv('')).toEqual([['']]);
  });

  it('keeps a quote that does not open a quoted cell as text', () => {
    expect(parseTsv('5" screen\tok')).toEqual([['5" screen', 'ok']]);
    expect(parseTsv('"unclosed\tx')).toEqual([['"unclosed', 'x']]);
    expect(parseTsv('"a"b\tc')).toEqual([['"a"b', 'c']]);
    expect(parseTsv('"multi\nline"\tnext\nrow 2\tz')).toEqual([
      ['multi\nline', 'next'],
      ['row 2', 'z'],
    ]);
  });
});

describe('ranges', () => {
  const s = { active: { rowIndex: 3, columnIndex: 2 }, focus: { rowIndex: 1, columnIndex: 4 } };

  it('spans the active cell and the far corner in any direction', () => {
    const r = rangeOf(s);
    expect(r).toEqual({ top: 1, bottom: 3, left: 2, right: 4 });
    expect(inRange(r, { rowIndex: 2, columnIndex: 3 })).toBe(true);
    expect(inRange(r, { rowIndex: 0, columnIndex: 3 })).toBe(false);
    expect(cellsOf({ top: 0, bottom: 1, left: 1, right: 2 })).toEqual([
      { rowIndex: 0, columnIndex: 1 },
      { rowIndex: 0, columnIndex: 2 },
      { rowIndex: 1, columnIndex: 1 },
      { rowIndex: 1, columnIndex: 2 },
    ]);
  });

  it('moves within the grid, and Tab wraps at the row ends but not past the first or last cell', () => {
    expect(clampMove({ rowIndex: 0, columnIndex: 0 }, -1, 0, 5, 3)).toEqual({ rowIndex: 0, columnIndex: 0 });
    expect(clampMove({ rowIndex: 4, columnIndex: 2 }, 1, 1, 5, 3)).toEqual({ rowIndex: 4, columnIndex: 2 });
    expect(tabMove({ rowIndex: 0, columnIndex: 2 }, 1, 5, 3)).toEqual({ rowIndex: 1, columnIndex: 0 });
    expect(tabMove({ rowIndex: 1, columnIndex: 0 }, -1, 5, 3)).toEqual({ rowIndex: 0, columnIndex: 2 });
    expect(tabMove({ rowIndex: 4, columnIndex: 2 }, 1, 5, 3)).toEqual({ rowIndex: 4, columnIndex: 2 });
    expect(tabMove({ rowIndex: 0, columnIndex: 0 }, -1, 5, 3)).toEqual({ rowIndex: 0, columnIndex: 0 });
  });
});

describe('paste plans', () => {
  const columns: GridColumn[] = [
    { key: 'a', name: 'A', type: 'Text' },
    { key: 'n', name: 'Column 3', type: 'Number' },
  ];
  const rows: GridRow[] = [
    { _row_id: 1, a: 'a1', n: 5 },
    { _row_id: 2, a: null, n: null },
  ];

  it('edits the cells that exist, adds rows below and columns to the right, and counts cells it may not write', () => {
    const plan = planPaste(
      [
        ['x', '7', 'new1'],
        ['', '8', ''],
        ['y', '', 'new3'],
      ],
      0,
      rows,
      columns,
    );
    expect(plan.newColumns).toEqual([{ key: expect.any(String), name: 'Column 4' }]);
    const extra = plan.newColumns[0]!.key;
    expect(plan.edits).toEqual([
      { rowId: 1, columnKey: 'a', value: 'x', previous: 'a1' },
      { rowId: 1, columnKey: extra, value: 'new1', previous: null },
      { rowId: 2, columnKey: 'n', value: '8', previous: null },
    ]);
    // The number 5 of a Number column is not text: that cell is counted, not silently dropped.
    expect(plan.skipped).toBe(1);
    expect(plan.newRows).toEqual([{ a: 'y', [extra]: 'new3' }]);

    const without = withoutNewColumns(plan);
    expect(without.newColumns).toEqual([]);
    expect(without.edits.map((e) => e.columnKey)).toEqual(['a', 'n']);
    expect(without.newRows).toEqual([{ a: 'y' }]);
  });

  it('starts at the given column, and one copied cell fills a selected range', () => {
    const plan = planPaste(blockFor([['z']], { top: 0, bottom: 1, left: 0, right: 0 }), 0, rows, columns);
    expect(plan.edits.map((e) => [e.rowId, e.columnKey, e.value])).toEqual([
      [1, 'a', 'z'],
      [2, 'a', 'z'],
    ]);
    expect(blockFor([['a', 'b']], { top: 0, bottom: 3, left: 0, right: 3 })).toEqual([['a', 'b']]);
    const right = planPaste([['q', 'r']], 1, rows.slice(1), columns);
    expect(right.newColumns.map((c) => c.name)).toEqual(['Column 4']);
    expect(right.edits.map((e) => e.value)).toEqual(['q', 'r']);
  });

  it('names new columns after the existing ones without reusing a name', () => {
    expect(newColumnNames(['A', 'column 3'], 2)).toEqual(['Column 4', 'Column 5']);
  });
});

describe('change batches', () => {
  it('keeps each call under the count and the byte budget, in order', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ i, text: 'x'.repeat(100) }));
    const byCount = batches(items, 3, 1_000_000);
    expect(byCount.map((b) => b.length)).toEqual([3, 3, 3, 1]);
    const byBytes = batches(items, 100, 350);
    expect(byBytes.every((b) => JSON.stringify(b).length <= 350 + b.length)).toBe(true);
    expect(byBytes.flat()).toEqual(items);
    // An item over the budget goes alone rather than being lost.
    expect(batches([{ big: 'y'.repeat(500) }, { small: 1 }], 10, 100).map((b) => b.length)).toEqual([1, 1]);
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

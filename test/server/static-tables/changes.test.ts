import { describe, expect, it } from 'vitest';
import type { TableChange } from '../../../src/shared/static-tables';
import type { Column } from '../../../src/shared/tables';
import { call, expectError, makeApp, signIn, type TestApp } from '../helpers';
import {
  byName,
  createTable,
  getTable,
  keyOf,
  ok,
  rowsByName,
  tableFromCsv,
  warehouseTables,
  type StaticTable,
} from './helpers';

interface Changed {
  columns: Column[];
  rowCount: number;
  addedRowIds: number[];
}

async function setup() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  return { t, cookie };
}

/** Columns a and b (keys as given), rows 1 to 3. */
function abcTable(t: TestApp, cookie: string, name = 'Edit me'): Promise<StaticTable> {
  return createTable(t, cookie, {
    name,
    columns: [
      { displayName: 'A', columnKey: 'a' },
      { displayName: 'B', columnKey: 'b' },
    ],
    rows: [
      ['a1', 'b1'],
      ['a2', 'b2'],
      ['a3', 'b3'],
    ],
  });
}

function postChanges(t: TestApp, cookie: string, id: string, changes: unknown[]) {
  return call<Changed>(t.server, 'POST', `/api/static-tables/${id}/changes`, { cookie, body: { changes } });
}

describe('POST /api/static-tables/{id}/changes, one kind at a time', () => {
  it('cells: sets text, numbers, booleans and blanks by row id and column key', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    t.clock.advance(5_000);
    const res = await postChanges(t, cookie, table.id, [
      {
        kind: 'cells',
        edits: [
          { rowId: 1, columnKey: 'a', value: 'new' },
          { rowId: 2, columnKey: 'b', value: 12.5 },
          { rowId: 3, columnKey: 'a', value: false },
          { rowId: 3, columnKey: 'b', value: null },
          { rowId: 99, columnKey: 'a', value: 'no such row: nothing happens' },
        ],
      },
    ]);
    expect(ok(res)).toEqual({ columns: table.columns, rowCount: 3, addedRowIds: [] });
    const after = await getTable(t, cookie, table.id);
    expect(after.modifiedAt).toBe(new Date(Date.parse(table.modifiedAt) + 5_000).toISOString());
    expect(byName(after, after.rows)).toEqual([
      { A: 'new', B: 'b1' },
      { A: 'a2', B: '12.5' },
      { A: 'false', B: null },
    ]);
  });

  it('cells: many edits at once (a paste) land as written one by one; the last write to a cell wins', async () => {
    const { t, cookie } = await setup();
    const table = await createTable(t, cookie, {
      name: 'Wide paste',
      columns: [
        { displayName: 'A', columnKey: 'a' },
        { displayName: 'B', columnKey: 'b' },
      ],
      rows: Array.from({ length: 700 }, (_, i) => [`a${i + 1}`, `b${i + 1}`]),
    });
    const edits = Array.from({ length: 700 }, (_, i) => [
      { rowId: i + 1, columnKey: 'a', value: i % 3 === 0 ? null : `x${i + 1}` },
      { rowId: i + 1, columnKey: 'b', value: i % 2 === 0 ? i : `y${i + 1}` },
    ]).flat();
    edits.push(
      { rowId: 5, columnKey: 'a', value: 'first' },
      { rowId: 5, columnKey: 'a', value: 'second' },
      { rowId: 2, columnKey: 'b', value: 12.5 },
      { rowId: 2, columnKey: 'b', value: 'y2' },
    );
    ok(await postChanges(t, cookie, table.id, [{ kind: 'cells', edits }]));
    const rows = (await getTable(t, cookie, table.id)).rows;
    expect(rows[0]).toEqual({ _row_id: 1, a: null, b: '0' });
    expect(rows[1]).toEqual({ _row_id: 2, a: 'x2', b: 'y2' });
    expect(rows[4]).toEqual({ _row_id: 5, a: 'second', b: '4' });
    expect(rows[699]).toEqual({ _row_id: 700, a: null, b: 'y700' });
  });

  it('addRows: appends blank rows numbered after the last row', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    expect(ok(await postChanges(t, cookie, table.id, [{ kind: 'addRows', count: 2 }])).rowCount).toBe(5);
    const after = await getTable(t, cookie, table.id);
    expect(after.rowCount).toBe(5);
    expect(after.rows.slice(3)).toEqual([
      { _row_id: 4, a: null, b: null },
      { _row_id: 5, a: null, b: null },
    ]);
  });

  it('addRows answers the ids of the rows it added', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    expect(ok(await postChanges(t, cookie, table.id, [{ kind: 'addRows', count: 2 }])).addedRowIds).toEqual([4, 5]);
  });

  it('appendRows: adds rows with their values after the last row, answering their ids', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    const res = ok(
      await postChanges(t, cookie, table.id, [
        { kind: 'deleteRows', rowIds: [2] },
        { kind: 'appendRows', rows: [{ a: 'x', b: 'tab\there "quoted"\nline' }, { b: '' }, {}] },
        { kind: 'addColumn', column: { displayName: 'C', columnKey: 'c' } },
        { kind: 'appendRows', rows: [{ c: 'new column', a: 'y' }] },
      ]),
    );
    expect(res).toMatchObject({ rowCount: 6, addedRowIds: [4, 5, 6, 7] });
    const after = await getTable(t, cookie, table.id);
    expect(after.rows.slice(2)).toEqual([
      { _row_id: 4, a: 'x', b: 'tab\there "quoted"\nline', c: null },
      { _row_id: 5, a: null, b: '', c: null },
      { _row_id: 6, a: null, b: null, c: null },
      { _row_id: 7, a: 'y', b: null, c: 'new column' },
    ]);
  });

  it('appendRows refuses an unknown column key and a fraction in a whole-number column, adding nothing', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    const unknown = await postChanges(t, cookie, table.id, [{ kind: 'appendRows', rows: [{ a: 'x', A: 'by name' }] }]);
    expect(expectError(unknown, 400)).toContain('Unknown column "A"');
    const numbers = await tableFromCsv(t, cookie, 'n,label\n1,one\n');
    const n = keyOf(numbers, 'n');
    const fraction = await postChanges(t, cookie, numbers.id, [{ kind: 'appendRows', rows: [{ [n]: '2.5' }] }]);
    expect(expectError(fraction, 400)).toContain('not a whole number');
    expect((await getTable(t, cookie, table.id)).rowCount).toBe(3);
    expect((await getTable(t, cookie, numbers.id)).rowCount).toBe(1);
    ok(await postChanges(t, cookie, numbers.id, [{ kind: 'appendRows', rows: [{ [n]: '7' }] }]));
    expect((await getTable(t, cookie, numbers.id)).rows.at(-1)).toMatchObject({ [n]: 7 });
  });

  it('deleteRows: removes the rows with those ids; unknown ids are ignored', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    const res = await postChanges(t, cookie, table.id, [{ kind: 'deleteRows', rowIds: [1, 3, 42] }]);
    expect(ok(res).rowCount).toBe(1);
    expect((await getTable(t, cookie, table.id)).rows).toEqual([{ _row_id: 2, a: 'a2', b: 'b2' }]);
    // New rows never reuse the id of a row still there.
    await postChanges(t, cookie, table.id, [{ kind: 'addRows', count: 1 }]);
    expect((await getTable(t, cookie, table.id)).rows.map((r) => r._row_id)).toEqual([2, 3]);
  });

  it('addColumn: adds a blank text column at the end', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    const res = ok(
      await postChanges(t, cookie, table.id, [
        { kind: 'addColumn', column: { displayName: 'Notes', description: 'Free text' } },
      ]),
    );
    const added = res.columns[2];
    expect(added).toEqual({
      columnKey: expect.stringMatching(/^[a-z]{4}$/),
      displayName: 'Notes',
      description: 'Free text',
      order: 2,
      type: 'Text',
    });
    const after = await getTable(t, cookie, table.id);
    expect(after.columns).toEqual(res.columns);
    expect(byName(after, after.rows)[0]).toEqual({ A: 'a1', B: 'b1', Notes: null });
  });

  it('deleteColumn: drops the column and its values, renumbering the order of the rest', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    const res = ok(await postChanges(t, cookie, table.id, [{ kind: 'deleteColumn', columnKey: 'a' }]));
    const expected = [{ columnKey: 'b', displayName: 'B', description: null, order: 0, type: 'Text' }];
    expect(res.columns).toEqual(expected);
    const after = await getTable(t, cookie, table.id);
    expect(after.columns).toEqual(expected);
    expect(after.rows[0]).toEqual({ _row_id: 1, b: 'b1' });
  });

  it('updateColumn: changes the name and description, keeping the key and values', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    await postChanges(t, cookie, table.id, [
      { kind: 'updateColumn', columnKey: 'b', displayName: '  Bee ', description: 'About b' },
    ]);
    let after = await getTable(t, cookie, table.id);
    expect(after.columns[1]).toEqual({
      columnKey: 'b',
      displayName: 'Bee',
      description: 'About b',
      order: 1,
      type: 'Text',
    });
    expect(after.rows).toEqual(table.rows);

    await postChanges(t, cookie, table.id, [{ kind: 'updateColumn', columnKey: 'b', description: null }]);
    after = await getTable(t, cookie, table.id);
    expect(after.columns[1]).toMatchObject({ displayName: 'Bee', description: null });
  });

  it('moveColumn: changes the order only, renumbering it, and clamps past the end', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    await postChanges(t, cookie, table.id, [{ kind: 'moveColumn', columnKey: 'b', toIndex: 0 }]);
    let after = await getTable(t, cookie, table.id);
    expect(after.columns.map((c) => [c.columnKey, c.order])).toEqual([
      ['b', 0],
      ['a', 1],
    ]);
    expect(after.rows).toEqual(table.rows);

    await postChanges(t, cookie, table.id, [{ kind: 'moveColumn', columnKey: 'b', toIndex: 99 }]);
    after = await getTable(t, cookie, table.id);
    expect(after.columns.map((c) => c.columnKey)).toEqual(['a', 'b']);
    expectError(
      await call(t.server, 'POST', `/api/static-tables/${table.id}/changes`, {
        cookie,
        body: { changes: [{ kind: 'moveColumn', columnKey: 'zz', toIndex: 0 }] },
      }),
      400,
    );
  });
});

describe('POST /api/static-tables/{id}/changes, several at once', () => {
  const KINDS = ['cells', 'addRows', 'deleteRows', 'addColumn', 'deleteColumn', 'updateColumn'] as const;
  const change: Record<(typeof KINDS)[number], TableChange> = {
    cells: { kind: 'cells', edits: [{ rowId: 2, columnKey: 'b', value: 'edited' }] },
    addRows: { kind: 'addRows', count: 2 },
    deleteRows: { kind: 'deleteRows', rowIds: [1] },
    addColumn: { kind: 'addColumn', column: { displayName: 'C' } },
    deleteColumn: { kind: 'deleteColumn', columnKey: 'a' },
    updateColumn: { kind: 'updateColumn', columnKey: 'b', displayName: 'Bee' },
  };

  it.each(KINDS)('applies %s then any other kind in one call exactly as two separate calls would', async (first) => {
    const { t, cookie } = await setup();
    const seconds = KINDS.filter((second) => second !== first);
    for (const second of seconds) {
      const batch = [change[first], change[second]];
      const together = await abcTable(t, cookie, `${first} + ${second}`);
      const apart = await abcTable(t, cookie, `${first} then ${second}`);
      const res = await postChanges(t, cookie, together.id, batch);
      expect(res.status, `${first} + ${second}: ${JSON.stringify(res.body)}`).toBe(200);
      for (const one of batch) ok(await postChanges(t, cookie, apart.id, [one]));

      const a = await getTable(t, cookie, together.id);
      const b = await getTable(t, cookie, apart.id);
      expect(
        a.columns.map((c) => c.displayName),
        `${first} + ${second}`,
      ).toEqual(b.columns.map((c) => c.displayName));
      expect(byName(a, a.rows), `${first} + ${second}`).toEqual(byName(b, b.rows));
      expect(a.rows.map((r) => r._row_id)).toEqual(b.rows.map((r) => r._row_id));
      expect(res.body.rowCount).toBe(a.rows.length);
      expect(res.body.columns).toEqual(a.columns);
    }
    expect(await warehouseTables(t, cookie)).toHaveLength(seconds.length * 2);
  });

  it('edits a column added earlier in the same call', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    const first = ok(await postChanges(t, cookie, table.id, [{ kind: 'addColumn', column: { displayName: 'C' } }]));
    const c = first.columns[2]?.columnKey ?? '';
    ok(
      await postChanges(t, cookie, table.id, [
        { kind: 'cells', edits: [{ rowId: 1, columnKey: c, value: 'c1' }] },
        { kind: 'addColumn', column: { displayName: 'D' } },
        { kind: 'deleteRows', rowIds: [3] },
        { kind: 'deleteColumn', columnKey: 'a' },
        { kind: 'addRows', count: 1 },
      ]),
    );
    expect(await rowsByName(t, cookie, table.id)).toEqual([
      { B: 'b1', C: 'c1', D: null },
      { B: 'b2', C: null, D: null },
      { B: null, C: null, D: null },
    ]);
  });
});

describe('POST /api/static-tables/{id}/changes, failures change nothing', () => {
  it('refuses an unknown column in any change, undoing the changes before it', async () => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    const before: unknown[] = [
      { kind: 'cells', edits: [{ rowId: 1, columnKey: 'a', value: 'lost' }] },
      { kind: 'deleteRows', rowIds: [2] },
      { kind: 'addRows', count: 3 },
      { kind: 'addColumn', column: { displayName: 'Lost' } },
      { kind: 'updateColumn', columnKey: 'a', displayName: 'Lost too' },
    ];
    for (const bad of [
      { kind: 'cells', edits: [{ rowId: 1, columnKey: 'zz', value: 'x' }] },
      { kind: 'deleteColumn', columnKey: 'zz' },
      { kind: 'updateColumn', columnKey: 'zz', displayName: 'X' },
    ]) {
      const res = await postChanges(t, cookie, table.id, [...before, bad]);
      expect(expectError(res, 400)).toBe('Unknown column "zz".');
      expect(await getTable(t, cookie, table.id)).toEqual(table);
    }
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
  });

  it('refuses a value a typed column cannot hold, undoing the edits before it', async () => {
    const { t, cookie } = await setup();
    const table = await tableFromCsv(t, cookie, 'Count,Price,Day\n10,1.5,2024-01-05\n20,2.25,2024-02-10\n');
    expect(table.columns.map((c) => c.type)).toEqual(['Number', 'Number', 'Date']);
    const [count, price, day] = ['Count', 'Price', 'Day'].map((name) => keyOf(table, name));
    for (const [columnKey, value] of [
      [count, 'abc'],
      [count, 12.5],
      [count, ' 7.25 '],
      [price, 'one'],
      [day, '2024-13-45'],
      [day, true],
    ] as const) {
      const res = await postChanges(t, cookie, table.id, [
        { kind: 'cells', edits: [{ rowId: 1, columnKey: price, value: 9 }] },
        { kind: 'addColumn', column: { displayName: 'Lost' } },
        { kind: 'cells', edits: [{ rowId: 2, columnKey, value }] },
      ]);
      expect(expectError(res, 400), `${String(value)}`).toMatch(/^A value does not fit its column: /);
      expect(await getTable(t, cookie, table.id)).toEqual(table);
    }
    // Values that fit are stored with the column's type, also by a call that adds a column.
    ok(
      await postChanges(t, cookie, table.id, [
        { kind: 'cells', edits: [{ rowId: 1, columnKey: count, value: '12' }] },
        { kind: 'cells', edits: [{ rowId: 1, columnKey: price, value: 3.75 }] },
        { kind: 'cells', edits: [{ rowId: 2, columnKey: day, value: '2025-06-30' }] },
        { kind: 'cells', edits: [{ rowId: 2, columnKey: count, value: null }] },
        { kind: 'addColumn', column: { displayName: 'Note' } },
      ]),
    );
    const after = await getTable(t, cookie, table.id);
    expect(after.columns.map((c) => c.type)).toEqual(['Number', 'Number', 'Date', 'Text']);
    expect(byName(after, after.rows)).toEqual([
      { Count: 12, Price: 3.75, Day: '2024-01-05', Note: null },
      { Count: null, Price: 2.25, Day: '2025-06-30', Note: null },
    ]);
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
  });

  it("refuses a typed number its column would round: past a double's digits, or past an exact decimal's", async () => {
    const { t, cookie } = await setup();
    // Price holds doubles; Money an exact DECIMAL (one value has more digits than a double holds).
    const table = await tableFromCsv(t, cookie, 'Price,Money\n1.5,99999999999999.999999\n2.25,1\n');
    const [price, money] = [keyOf(table, 'Price'), keyOf(table, 'Money')];
    for (const [columnKey, value, why] of [
      [price, '12345678901234567', '12345678901234567 has more digits than a Number column holds exactly (15)'],
      [money, '1.1234567', "1.1234567 needs more than the column's 32 digits before the point and 6 after"],
      [money, '1e40', "1e40 needs more than the column's 32 digits before the point and 6 after"],
    ] as const) {
      const res = await postChanges(t, cookie, table.id, [{ kind: 'cells', edits: [{ rowId: 2, columnKey, value }] }]);
      expect(expectError(res, 400)).toBe(`A value does not fit its column: ${why}.`);
      expect(await getTable(t, cookie, table.id)).toEqual(table);
    }
    ok(
      await postChanges(t, cookie, table.id, [
        { kind: 'cells', edits: [{ rowId: 2, columnKey: price, value: '0.1' }] },
        { kind: 'cells', edits: [{ rowId: 2, columnKey: money, value: '12345678901234567.123456' }] },
      ]),
    );
    const after = await getTable(t, cookie, table.id);
    expect(byName(after, after.rows)[1]).toEqual({ Price: 0.1, Money: '12345678901234567.123456' });

    // A script's JSON numbers are read exactly too: never rounded before the column sees them.
    const raw = (value: string, columnKey: string) =>
      call(t.server, 'POST', `/api/static-tables/${table.id}/changes`, {
        cookie,
        headers: { 'content-type': 'application/json' },
        body: `{"changes":[{"kind":"cells","edits":[{"rowId":1,"columnKey":"${columnKey}","value":${value}}]}]}`,
      });
    expect(expectError(await raw('12345678901234567', price), 400)).toBe(
      'A value does not fit its column: 12345678901234567 has more digits than a Number column holds exactly (15).',
    );
    ok(await raw('99999999999999.999998', money));
    const again = await getTable(t, cookie, table.id);
    expect(byName(again, again.rows)[0]).toEqual({ Price: 1.5, Money: '99999999999999.999998' });
  });

  it('stores a time with an offset as the same instant, and refuses a time of day in a Date column and nanoseconds in a DateTime one', async () => {
    const { t, cookie } = await setup();
    const table = await tableFromCsv(
      t,
      cookie,
      'Day,At\n2024-01-05,2024-01-05 10:00:00\n2024-01-06,2024-01-06 11:00:00\n',
    );
    const [day, at] = [keyOf(table, 'Day'), keyOf(table, 'At')];
    expect(table.columns.map((c) => c.type)).toEqual(['Date', 'DateTime']);
    // DuckDB's casts kept 2024-01-07 of the first and 10:30 of the second, dropping the rest.
    for (const value of ['2024-01-07 10:30', '2024-01-07T00:00:00+02:00']) {
      const res = await postChanges(t, cookie, table.id, [
        { kind: 'cells', edits: [{ rowId: 1, columnKey: day, value }] },
      ]);
      expect(expectError(res, 400)).toBe(
        `A value does not fit its column: ${value} has a time of day, and a Date column holds dates alone.`,
      );
    }
    // DuckDB's cast kept .123456 of the nanoseconds, in a cell and in an appended row alike.
    const nanos = '2024-01-07 10:30:00.123456789';
    for (const change of [
      { kind: 'cells', edits: [{ rowId: 1, columnKey: at, value: nanos }] },
      { kind: 'appendRows', rows: [{ [at]: nanos }] },
    ]) {
      expect(expectError(await postChanges(t, cookie, table.id, [change]), 400)).toBe(
        `A value does not fit its column: ${nanos} has more digits after the second than its column holds (6).`,
      );
    }
    expect(await getTable(t, cookie, table.id)).toEqual(table);
    ok(
      await postChanges(t, cookie, table.id, [
        {
          kind: 'cells',
          edits: [
            { rowId: 1, columnKey: day, value: '2024-01-07T00:00:00Z' },
            { rowId: 1, columnKey: at, value: '2024-01-07T10:30:00+02:00' },
            { rowId: 2, columnKey: at, value: '2024-01-08T10:30:00.123456000Z' },
          ],
        },
        { kind: 'appendRows', rows: [{ [day]: '2024-01-09', [at]: '2024-01-08T21:00:00-05:00' }] },
      ]),
    );
    expect(await rowsByName(t, cookie, table.id)).toEqual([
      { Day: '2024-01-07', At: '2024-01-07T08:30:00.000Z' },
      { Day: '2024-01-06', At: '2024-01-08T10:30:00.123456Z' },
      { Day: '2024-01-09', At: '2024-01-09T02:00:00.000Z' },
    ]);
  });

  it.each([
    ['no changes', { changes: [] }],
    ['no body', undefined],
    ['an unknown kind', { changes: [{ kind: 'renameTable', name: 'x' }] }],
    ['a row count of 0', { changes: [{ kind: 'addRows', count: 0 }] }],
    ['a fractional row id', { changes: [{ kind: 'deleteRows', rowIds: [1.5] }] }],
    ['an empty column name', { changes: [{ kind: 'addColumn', column: { displayName: '  ' } }] }],
    ['more than 100 changes', { changes: Array.from({ length: 101 }, () => ({ kind: 'addRows', count: 1 })) }],
  ])('refuses %s with 400', async (_, body) => {
    const { t, cookie } = await setup();
    const table = await abcTable(t, cookie);
    const res = await call(t.server, 'POST', `/api/static-tables/${table.id}/changes`, { cookie, body });
    expectError(res, 400);
    expect(await getTable(t, cookie, table.id)).toEqual(table);
  });

  it('answers 404 for a table that does not exist', async () => {
    const { t, cookie } = await setup();
    const res = await postChanges(t, cookie, 'missing', [{ kind: 'addRows', count: 1 }]);
    expect(expectError(res, 404)).toBe('Table not found.');
  });
});

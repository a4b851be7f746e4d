import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayValue, toDisplayRows } from '../../../src/server/modules/tables/display-values';
import { plainNumber } from '../../../src/shared/number-text';
import type { Paged } from '../../../src/shared/tables';
import { makeApp, signIn } from '../helpers';
import { infiniteScroll, keyOf, ok, query, tableFromCsv, trpcOk, type Row } from '../static-tables/helpers';

const CSV = [
  'Name,Amount,Day,At,Active',
  'Alpha,10,2024-01-05,2024-01-05 10:00:00,true',
  'beta,1234567.25,2024-02-10,2024-02-10 12:30:00,false',
  'delta,,,,',
].join('\n');

describe('displayValue', () => {
  it('shows each column type as the grid does, keeping empty cells null', () => {
    expect(displayValue('text', 'Text')).toBe('text');
    expect(displayValue(1234567.25, 'Number')).toBe('1234567.25');
    expect(displayValue(-0.5, 'Number')).toBe('-0.5');
    expect(displayValue('12345678901234567890', 'Number')).toBe('12345678901234567890');
    // Plain decimals at any size: the shortest exact digits, never an exponent.
    expect(displayValue(1e-7, 'Number')).toBe('0.0000001');
    expect(displayValue(-1.2345e-10, 'Number')).toBe('-0.00000000012345');
    expect(displayValue(1e21, 'Number')).toBe('1000000000000000000000');
    expect(displayValue(1.5e300, 'Number')).toBe(`15${'0'.repeat(299)}`);
    expect(displayValue(100000000000000000, 'Number')).toBe('100000000000000000');
    expect(displayValue([1e-7, 3804], 'Array')).toBe('0.0000001, 3804');
    expect(displayValue(false, 'Boolean')).toBe('false');
    expect(displayValue('2024-01-05', 'Date')).toBe('2024-01-05');
    expect(displayValue('2024-01-05T10:00:00.000Z', 'DateTime')).toBe('2024-01-05T10:00:00.000Z');
    expect(displayValue(['a', 2, null, true, ['x'], { k: 1 }], 'Array')).toBe('a, 2, null, true, ["x"], {"k":1}');
    expect(displayValue([], 'Array')).toBe('');
    expect(displayValue({ a: [1, 2], b: { c: 'd e' } }, 'Json')).toBe('{"a":[1,2],"b":{"c":"d e"}}');
    expect(displayValue('just text', 'Json')).toBe('"just text"');
    expect(displayValue(null, 'Json')).toBeNull();
    expect(displayValue(undefined, 'Number')).toBeNull();
    expect(displayValue({ a: 1 }, 'Text')).toBe('{"a":1}');
  });

  it('writes every finite double as plain decimal text that reads back as the same double (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = plainNumber(n);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(text)).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves keys that are not columns (the row key) as they are', () => {
    const rows = toDisplayRows(
      [{ _row_id: 7, n: 3, j: { x: 1 } }],
      [
        { columnKey: 'n', displayName: 'N', description: null, order: 0, type: 'Number' },
        { columnKey: 'j', displayName: 'J', description: null, order: 1, type: 'Json' },
      ],
    );
    expect(rows).toEqual([{ _row_id: 7, n: '3', j: '{"x":1}' }]);
  });
});

describe('forDisplay in the page calls', () => {
  it('answers every cell as text over REST and tRPC, and typed values without it', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const table = await tableFromCsv(t, cookie, CSV);
    const named = (rows: Row[]) =>
      rows.map((row) => [
        row._row_id,
        ...['Name', 'Amount', 'Day', 'At', 'Active'].map((name) => row[keyOf(table, name)]),
      ]);

    const raw = ok(await infiniteScroll(t, cookie, table.id, {}));
    const shown = ok(await infiniteScroll(t, cookie, table.id, { forDisplay: true }));
    expect(named(raw.data)[1]).toEqual([2, 'beta', 1234567.25, '2024-02-10', expect.any(String), false]);
    const at = named(raw.data)[0]?.[4] as string;
    expect(new Date(at).toISOString()).toBe('2024-01-05T10:00:00.000Z');
    expect(named(shown.data)).toEqual([
      [1, 'Alpha', '10', '2024-01-05', at, 'true'],
      [2, 'beta', '1234567.25', '2024-02-10', named(raw.data)[1]?.[4], 'false'],
      [3, 'delta', null, null, null, null],
    ]);

    const sorted = { sorting: [{ columnKey: keyOf(table, 'Amount'), direction: 'Descending' }], forDisplay: true };
    const viaTrpc = trpcOk(
      await query<Paged<Row>>(t, 'tables.page', { type: 'StaticTable', id: table.id, ...sorted }, cookie),
    );
    expect(named(viaTrpc.data).map((r) => r[2])).toEqual(['1234567.25', '10', null]);
  });
});

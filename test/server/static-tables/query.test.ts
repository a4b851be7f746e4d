import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn } from '../helpers';
import { keyOf, ok, tableFromCsv, type Row } from './helpers';

const CSV = 'Name,Amount,Day\nAlpha,10,2024-01-05\nbeta,25.5,2024-02-10\nGamma,-3,2024-03-15\ndelta,,2024-02-29\n';

async function imported() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await tableFromCsv(t, cookie, CSV);
  const names = async (body: unknown) => {
    const res = ok(await call<Row[]>(t.server, 'POST', `/api/static-tables/${table.id}/query`, { cookie, body }));
    return res.map((row) => row[keyOf(table, 'Name')]);
  };
  return { t, cookie, table, names };
}

describe('POST /api/static-tables/{id}/query', () => {
  it('answers every row, in row order, without filters', async () => {
    const { table, names } = await imported();
    expect(await names({})).toEqual(['Alpha', 'beta', 'Gamma', 'delta']);
    expect(await names({ filters: [] })).toEqual(['Alpha', 'beta', 'Gamma', 'delta']);
    expect(table.rows).toHaveLength(4);
  });

  it('answers the rows matching the filters, joined by their condition operators', async () => {
    const { table, names } = await imported();
    const amount = keyOf(table, 'Amount');
    const name = keyOf(table, 'Name');
    const day = keyOf(table, 'Day');
    expect(await names({ filters: [{ columnKey: amount, operator: 'GreaterThan', value: 0 }] })).toEqual([
      'Alpha',
      'beta',
    ]);
    expect(
      await names({
        filters: [
          { columnKey: name, operator: 'Contains', value: 'A' },
          { columnKey: amount, operator: 'LessThan', value: 20, conditionOperator: 'And' },
        ],
      }),
    ).toEqual(['Alpha', 'Gamma']);
    expect(
      await names({
        filters: [
          { columnKey: amount, operator: 'Empty' },
          { columnKey: day, operator: 'Equals', value: '2024-01-05' },
        ],
      }),
    ).toEqual(['Alpha', 'delta']);
  });

  it('answers rows with their row id and every column', async () => {
    const { t, cookie, table } = await imported();
    const res = await call<Row[]>(t.server, 'POST', `/api/static-tables/${table.id}/query`, {
      cookie,
      body: { filters: [{ columnKey: keyOf(table, 'Name'), operator: 'Equals', value: 'beta' }] },
    });
    expect(ok(res)).toEqual([
      {
        _row_id: 2,
        [keyOf(table, 'Name')]: 'beta',
        [keyOf(table, 'Amount')]: 25.5,
        [keyOf(table, 'Day')]: '2024-02-10',
      },
    ]);
  });

  it('refuses an unknown column, an unknown operator and a value of the wrong type with 400', async () => {
    const { t, cookie, table } = await imported();
    const query = (filters: unknown) =>
      call(t.server, 'POST', `/api/static-tables/${table.id}/query`, { cookie, body: { filters } });
    expect(expectError(await query([{ columnKey: 'nope', operator: 'Equals', value: 1 }]), 400)).toBe(
      'Unknown column "nope"',
    );
    expectError(await query([{ columnKey: keyOf(table, 'Name'), operator: 'Like', value: 'a' }]), 400);
    expect(
      expectError(await query([{ columnKey: keyOf(table, 'Amount'), operator: 'Equals', value: 'ten' }]), 400),
    ).toBe('Filter on "Amount": "ten" is not a number');
    expect(expectError(await query('Name = 1'), 400)).toMatch(/^filters: /);
  });

  it('answers 404 for a table that does not exist', async () => {
    const { t, cookie } = await imported();
    const res = await call(t.server, 'POST', '/api/static-tables/missing/query', { cookie, body: {} });
    expect(expectError(res, 404)).toBe('Table not found.');
  });
});

import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn } from '../helpers';
import { keyOf, tableFromCsv } from '../static-tables/helpers';

const CSV = ['Name,Amount', 'Alpha,10', 'beta,25.5', 'Gamma,-3', 'delta,', 'Epsilon,100'].join('\n');

async function imported() {
  // Open sign-up, so a second person can sign up into an account of their own.
  const t = await makeApp({ SIGNUP: 'open' });
  const cookie = await signIn(t, 'owner@example.com');
  const table = await tableFromCsv(t, cookie, `${CSV}\n`, 'Figures');
  const amount = keyOf(table, 'Amount');
  const filterGroups = [{ filters: [{ columnKey: amount, operator: 'GreaterThan', value: 0 }] }];
  const sorting = [{ columnKey: amount, direction: 'Descending' }];
  return { t, cookie, table, amount, filterGroups, sorting };
}

/** What the grid sends: the form a plain post of the Download menu submits. */
function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('download with the grid filters and sort', () => {
  it('a form post streams only the matching rows, in the grid order', async () => {
    const { t, cookie, table, filterGroups, sorting } = await imported();
    const res = await call<string>(t.server, 'POST', `/api/tables/StaticTable/${table.id}/download`, {
      cookie,
      headers: FORM,
      body: formBody({ format: 'csv', filterGroups: JSON.stringify(filterGroups), sorting: JSON.stringify(sorting) }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="Figures.csv"');
    expect(res.body).toBe('Name,Amount\nEpsilon,100\nbeta,25.5\nAlpha,10\n');
  });

  it('a link (query text) and a JSON body give the same file; no filters give every row in row order', async () => {
    const { t, cookie, table, filterGroups, sorting } = await imported();
    const path = `/api/tables/StaticTable/${table.id}/download`;
    const search = new URLSearchParams({
      filterGroups: JSON.stringify(filterGroups),
      sorting: JSON.stringify(sorting),
    });
    const viaLink = await call<string>(t.server, 'GET', `${path}?${search.toString()}`, { cookie });
    const viaJson = await call<string>(t.server, 'POST', path, {
      cookie,
      body: { format: 'csv', filterGroups, sorting },
    });
    expect(viaLink.status).toBe(200);
    expect(viaJson.body).toBe(viaLink.body);
    expect(viaLink.body.split('\n').slice(1, -1)).toEqual(['Epsilon,100', 'beta,25.5', 'Alpha,10']);

    const everything = await call<string>(t.server, 'POST', path, { cookie, headers: FORM, body: '' });
    expect(
      everything.body
        .split('\n')
        .slice(1, -1)
        .map((line) => line.split(',')[0]),
    ).toEqual(['Alpha', 'beta', 'Gamma', 'delta', 'Epsilon']);
  });

  it('sorts with nulls last and writes Parquet through the same path', async () => {
    const { t, cookie, table, amount } = await imported();
    const res = await call(t.server, 'POST', `/api/tables/StaticTable/${table.id}/download`, {
      cookie,
      headers: FORM,
      body: formBody({ format: 'parquet', sorting: JSON.stringify([{ columnKey: amount, direction: 'Ascending' }]) }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apache.parquet');
    expect(res.raw.rawPayload.subarray(0, 4).toString('latin1')).toBe('PAR1');
  });

  it('refuses bad filters with 400 and keeps other accounts out', async () => {
    const { t, cookie, table, amount } = await imported();
    const path = `/api/tables/StaticTable/${table.id}/download`;
    const post = (fields: Record<string, string>, who = cookie) =>
      call(t.server, 'POST', path, { cookie: who, headers: FORM, body: formBody(fields) });
    const unknown = [{ filters: [{ columnKey: 'nope', operator: 'Equals', value: 'x' }] }];
    expect(expectError(await post({ filterGroups: JSON.stringify(unknown) }), 400)).toMatch(/nope/);
    const notNumber = [{ filters: [{ columnKey: amount, operator: 'Equals', value: 'ten' }] }];
    expectError(await post({ filterGroups: JSON.stringify(notNumber) }), 400);
    expectError(await post({ filterGroups: '{not json' }), 400);
    expectError(await post({ sorting: JSON.stringify([{ columnKey: amount, direction: 'Sideways' }]) }), 400);
    expectError(await post({ format: 'xlsx' }), 400);
    const stranger = await signIn(t, 'stranger@example.com');
    expect(expectError(await post({}, stranger), 404)).toBe('Table not found.');
    expectError(await post({}, ''), 401);
  });
});

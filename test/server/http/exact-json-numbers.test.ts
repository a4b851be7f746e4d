/**
 * Numbers in REST bodies that a double would change: a script writes the filter value
 * 9007199254740993 as a JSON number, and must get that row, not the one a double makes of it.
 * Numbers a double holds stay numbers; a field taking only numbers refuses one it would change.
 */
import { describe, expect, it } from 'vitest';
import type { Model } from '../../../src/shared/models';
import { call, expectError, makeApp, signIn } from '../helpers';
import { addColumn, createModel, modelKey, rawColumn } from '../models/helpers';
import { keyOf, ok, tableFromCsv } from '../static-tables/helpers';

/** A JSON body written as text, so its numbers reach the server exactly as a script writes them. */
const rawJson = (text: string) => ({ headers: { 'content-type': 'application/json' }, body: text });

describe('REST bodies with numbers a double would change', () => {
  it('compares a filter value written as a JSON number exactly, and a model saves it exactly', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const table = await tableFromCsv(
      t,
      cookie,
      'id,amount\n9007199254740992,0.1\n9007199254740993,99999999999999.999999\n',
      'Big',
    );
    const id = keyOf(table, 'id');
    const amount = keyOf(table, 'amount');
    const page = (filter: string) =>
      call<{ data: Record<string, unknown>[] }>(
        t.server,
        'POST',
        `/api/tables/StaticTable/${table.id}/data/infinite-scroll`,
        {
          cookie,
          ...rawJson(`{"page":1.0,"pageSize":50,"filterGroups":[{"filters":[${filter}]}]}`),
        },
      );
    const found = ok(await page(`{"columnKey":"${id}","operator":"Equals","value":9007199254740993}`));
    expect(found.data.map((r) => r[id])).toEqual(['9007199254740993']);
    const decimal = ok(await page(`{"columnKey":"${amount}","operator":"Equals","value":99999999999999.999999}`));
    expect(decimal.data.map((r) => r[id])).toEqual(['9007199254740993']);
    // A number a double holds is still a number: 0.10 is 0.1.
    const small = ok(await page(`{"columnKey":"${amount}","operator":"Equals","value":0.10}`));
    expect(small.data.map((r) => r[id])).toEqual(['9007199254740992']);
    // A field that takes only numbers refuses one a double would change, instead of reading another.
    const refused = await call(t.server, 'POST', `/api/tables/StaticTable/${table.id}/data/infinite-scroll`, {
      cookie,
      ...rawJson('{"page":1,"pageSize":9007199254740993}'),
    });
    expect(expectError(refused, 400)).toContain('pageSize');

    // A model's saved filter keeps the value exactly, and answers the same row.
    const model = await addColumn(t, cookie, (await createModel(t, cookie)).id, rawColumn(table, 'id', 'Id'));
    const column = modelKey(model, 'Id');
    const filterGroups = `{"filterGroups":[{"filters":[{"columnKey":"${column}","operator":"Equals","value":9007199254740993}]}]}`;
    ok(await call(t.server, 'PUT', `/api/models/${model.id}/filter_groups`, { cookie, ...rawJson(filterGroups) }));
    const saved = ok(await call<Model>(t.server, 'GET', `/api/models/${model.id}?draft=true`, { cookie }));
    expect(saved.filterGroups[0]?.filters[0]?.value).toBe('9007199254740993');
  });
});

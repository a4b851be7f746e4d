import { describe, expect, it, vi } from 'vitest';
import type { SearchResponse } from '../../../src/shared/search';
import { searchIndexOf } from '../../../src/server/search/search-index';
import { searchValues } from '../../../src/server/search/service';
import { call, type TestApp } from '../helpers';
import { addColumn, api, createModel, rawColumn } from '../models/helpers';
import {
  appWithTeam,
  appWithTwoTeams,
  keyOf,
  ok,
  query,
  tableFromCsv,
  trpcOk,
  uploadCsv,
} from '../static-tables/helpers';

const search = async (t: TestApp, cookie: string, query: string) =>
  ok(await call<SearchResponse>(t.server, 'GET', `/api/search?query=${encodeURIComponent(query)}`, { cookie }));

const indexed = (t: TestApp) => searchIndexOf(t.deps).idle();

const CSV = [
  'name,city,notes',
  'Zoë Müller,Zürich,first customer from the lake',
  'Ana Souza,São Paulo,prefers e-mail',
  'Ben Brown,Zürich,asked about the lake house',
  'Chloé Dubois,Paris,',
].join('\n');

describe('Global search over static tables', () => {
  it('groups by table with counts per column, prefix and diacritics ignored, sample hits with their full row', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await tableFromCsv(t, cookie, CSV, 'Customers');
    await indexed(t);

    const zur = await search(t, cookie, 'zur');
    expect(zur.totalHits).toBe(2);
    expect(zur.groups).toHaveLength(1);
    const group = zur.groups[0]!;
    expect(group.tableType).toBe('StaticTable');
    expect(group.tableId).toBe(table.id);
    expect(group.tableName).toBe('Customers');
    expect(group.value.split('.')).toHaveLength(3);
    expect(group.count).toBe(2);
    expect(group.columns.map((c) => [c.columnName, c.count])).toEqual([['city', 2]]);
    const hit = group.sampleHits[0]!;
    expect(hit.value).toBe('Zürich');
    expect(hit.count).toBe(2);
    expect(hit.snippet).toEqual({ text: 'Zürich', highlights: [[0, 3]] });
    expect(Object.values(hit.document.fullRecord ?? {})).toContain('Zürich');

    // Case and diacritics: 'SAO' finds São, 'chloe' finds Chloé; an upper-case prefix too.
    expect((await search(t, cookie, 'SAO')).totalHits).toBe(1);
    expect((await search(t, cookie, 'chloe dub')).groups[0]?.sampleHits[0]?.value).toBe('Chloé Dubois');
    // Two words count the values holding both.
    expect((await search(t, cookie, 'lake house')).totalHits).toBe(1);
    // Only the last word is the one being typed (a prefix); the words before it are whole words.
    expect((await search(t, cookie, 'lake hou')).totalHits).toBe(1);
    expect((await search(t, cookie, 'lak house')).totalHits).toBe(0);
    // Words in several columns: each column counts its own rows.
    const lake = await search(t, cookie, 'lake');
    expect(lake.totalHits).toBe(2);
    expect(lake.groups[0]?.columns.map((c) => c.columnName)).toEqual(['notes']);

    expect(await search(t, cookie, 'q')).toMatchObject({ totalHits: 0, groups: [] });
    expect(await search(t, cookie, 'nothing-like-it')).toMatchObject({ totalHits: 0, groups: [] });
  });
});

describe('Account scope', () => {
  it("answers only from the caller's account, over REST and tRPC", async () => {
    const { t, a, b } = await appWithTwoTeams();
    await tableFromCsv(t, a.owner.cookie, CSV, 'Customers');
    await indexed(t);
    expect((await search(t, a.owner.cookie, 'zurich')).totalHits).toBe(2);
    expect(await search(t, b.owner.cookie, 'zurich')).toMatchObject({ totalHits: 0, groups: [] });
    const viaTrpc = trpcOk(await query<SearchResponse>(t, 'search.query', { query: 'zurich' }, b.owner.cookie));
    expect(viaTrpc.totalHits).toBe(0);
    const own = trpcOk(await query<SearchResponse>(t, 'search.query', { query: 'zurich' }, a.owner.cookie));
    expect(own.totalHits).toBe(2);
    // Signed out: no answer at all.
    expect((await call(t.server, 'GET', '/api/search?query=zurich')).status).toBe(401);
  });
});

describe('searchValues (for the Queries chat)', () => {
  it('gives the distinct values a question names, with their table, column and row count', async () => {
    const { t, team } = await appWithTeam();
    const table = await tableFromCsv(t, team.owner.cookie, CSV, 'Customers');
    await indexed(t);
    const values = await searchValues(t.deps, team.accountId, 'how many customers from zurich', 10);
    expect(values).toEqual([
      {
        table: { type: 'StaticTable', id: table.id, name: 'Customers' },
        columnKey: keyOf(table, 'city'),
        value: 'Zürich',
        count: 2,
      },
    ]);
    // A value is named only when all its words are in the question.
    expect(await searchValues(t.deps, team.accountId, 'customers in sao', 10)).toEqual([]);
    expect((await searchValues(t.deps, team.accountId, 'customers in São Paulo', 10))[0]?.value).toBe('São Paulo');
  });
});

describe('Tables that can no longer be read', () => {
  it("follows a model version's source: its new rows are found in the version, and a removed source column drops the version quietly", async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await tableFromCsv(t, cookie, 'id,region,amount\n1,Northwind,10\n2,Southgate,25\n', 'Sales');
    let model = await createModel(t, cookie, 'Sales model');
    await addColumn(t, cookie, model.id, rawColumn(table, 'region', 'Region'));
    model = await addColumn(t, cookie, model.id, rawColumn(table, 'amount', 'Amount'));
    ok(await api(t, cookie, 'POST', `/api/models/${model.id}/publish`));
    await indexed(t);
    const before = await search(t, cookie, 'northw');
    expect(before.groups.map((g) => g.tableType).sort()).toEqual(['ModelVersion', 'StaticTable']);

    // The version is a view: new rows in its source are found in it too.
    ok(await uploadCsv(t, cookie, table.id, 'id,region,amount\n1,Northwind,10\n2,Eastbrook,25\n'));
    await indexed(t);
    const east = await search(t, cookie, 'eastb');
    expect(east.groups.map((g) => g.tableType).sort()).toEqual(['ModelVersion', 'StaticTable']);

    const errors = vi.spyOn(console, 'error');
    try {
      // The file no longer has 'amount': the published version's view cannot be read any more.
      ok(await uploadCsv(t, cookie, table.id, 'id,region\n1,Northwind\n2,Eastbrook\n'));
      await indexed(t);
      expect(errors.mock.calls.map((c) => String(c[0]))).not.toContainEqual(expect.stringContaining('Could not index'));
    } finally {
      errors.mockRestore();
    }
    const after = await search(t, cookie, 'northw');
    expect(after.groups.map((g) => g.tableType)).toEqual(['StaticTable']);
  });
});

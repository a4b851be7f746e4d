import { describe, expect, it } from 'vitest';
import type { Paged } from '../../../src/shared/tables';
import { makeApp, signIn, type TrpcError } from '../helpers';
import { createTable, query, trpcOk, type Row, type TableSummary } from '../static-tables/helpers';

async function withTable() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await createTable(t, cookie, {
    name: 'Letters',
    columns: [
      { displayName: 'Letter', columnKey: 'letter' },
      { displayName: 'Kind', columnKey: 'kind' },
    ],
    rows: Array.from({ length: 26 }, (_, i) => {
      const letter = String.fromCharCode(65 + i);
      return [letter, 'AEIOU'.includes(letter) ? 'vowel' : 'consonant'];
    }),
  });
  return { t, cookie, table };
}

const vowels = [{ filters: [{ columnKey: 'kind', operator: 'Equals', value: 'vowel' }] }];

describe('tables over tRPC', () => {
  it('tables.list and tables.get answer table summaries', async () => {
    const { t, cookie, table } = await withTable();
    const list = trpcOk(await query<TableSummary[]>(t, 'tables.list', { types: ['StaticTable'] }, cookie));
    expect(list.map((s) => [s.id, s.type, s.name])).toEqual([[table.id, 'StaticTable', 'Letters']]);
    expect(trpcOk(await query<TableSummary[]>(t, 'tables.list', {}, cookie))).toEqual(list);
    expect(trpcOk(await query<TableSummary[]>(t, 'tables.list', { types: ['ModelVersion'] }, cookie))).toEqual([]);
    const got = trpcOk(await query<TableSummary>(t, 'tables.get', { type: 'StaticTable', id: table.id }, cookie));
    expect(got).toEqual(list[0]);
  });

  it('tables.page pages, filters and sorts like the REST call', async () => {
    const { t, cookie, table } = await withTable();
    const page = (input: Record<string, unknown>) =>
      query<Paged<Row>>(t, 'tables.page', { type: 'StaticTable', id: table.id, ...input }, cookie).then(trpcOk);

    const first = await page({ pageSize: 10, withCount: false });
    expect(first).toMatchObject({ page: 1, pageSize: 10, count: -1, totalPages: -1, hasMore: true });
    expect(await page({ pageSize: 10 })).toMatchObject({ count: 26, totalPages: 3, hasMore: true });
    expect(first.data.map((r) => r.letter)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
    const last = await page({ page: 3, pageSize: 10, withCount: true });
    expect(last).toMatchObject({ count: 26, totalPages: 3, hasMore: false });
    expect(last.data.map((r) => r.letter)).toEqual(['U', 'V', 'W', 'X', 'Y', 'Z']);

    const sorted = await page({ filterGroups: vowels, sorting: [{ columnKey: 'letter', direction: 'Descending' }] });
    expect(sorted.data.map((r) => r.letter)).toEqual(['U', 'O', 'I', 'E', 'A']);
    expect(sorted.hasMore).toBe(false);
  });

  it('tables.count counts with filter groups', async () => {
    const { t, cookie, table } = await withTable();
    const count = (filterGroups: unknown[]) =>
      query<{ totalCount: number }>(t, 'tables.count', { type: 'StaticTable', id: table.id, filterGroups }, cookie);
    expect(trpcOk(await count([]))).toEqual({ totalCount: 26 });
    expect(trpcOk(await count(vowels))).toEqual({ totalCount: 5 });
  });

  it('answers NOT_FOUND for a missing table and BAD_REQUEST for an unknown column or type', async () => {
    const { t, cookie, table } = await withTable();
    const missing = await query<never>(t, 'tables.get', { type: 'StaticTable', id: 'missing' }, cookie);
    expect(missing.status).toBe(404);
    expect((missing.body as unknown as TrpcError).error.data.code).toBe('NOT_FOUND');

    const unknown = await query<never>(
      t,
      'tables.page',
      { type: 'StaticTable', id: table.id, sorting: [{ columnKey: 'nope' }] },
      cookie,
    );
    expect(unknown.status).toBe(400);
    expect((unknown.body as unknown as TrpcError).error.message).toBe('Unknown column "nope"');

    const type = await query<never>(t, 'tables.get', { type: 'Spreadsheet', id: table.id }, cookie);
    expect(type.status).toBe(400);
  });
});

import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn, type TestApp } from '../helpers';
import { createTable, infiniteScroll, ok, type Row, type StaticTable } from '../static-tables/helpers';

/** `n` rows: n numbered 1..n as text, g one of three groups (ties), maybe blank every 10th row. */
async function numbered(n: number) {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await createTable(t, cookie, {
    name: 'Numbered',
    columns: [
      { displayName: 'N', columnKey: 'n' },
      { displayName: 'G', columnKey: 'g' },
      { displayName: 'Maybe', columnKey: 'maybe' },
    ],
    rows: Array.from({ length: n }, (_, i) => [
      String(i + 1),
      ['x', 'y', 'z'][i % 3] ?? null,
      i % 10 === 0 ? null : 'v',
    ]),
  });
  return { t, cookie, table };
}

/** Every page of a request, until a page comes back short; fails on a page that repeats the first. */
async function allPages(t: TestApp, cookie: string, table: StaticTable, body: Record<string, unknown>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; page < 1_000; page += 1) {
    const res = ok(await infiniteScroll(t, cookie, table.id, { ...body, page }));
    rows.push(...res.data);
    if (!res.hasMore) return rows;
  }
  throw new Error('Paging never ended');
}

describe('POST /api/tables/StaticTable/{id}/data/infinite-scroll', () => {
  it("answers the first page of 50 rows in row order, with the spec's count and totalPages by default", async () => {
    const { t, cookie, table } = await numbered(120);
    const res = ok(await infiniteScroll(t, cookie, table.id, {}));
    expect(res).toMatchObject({ page: 1, pageSize: 50, count: 120, totalPages: 3, hasMore: true });
    expect(res.data).toHaveLength(50);
    expect(res.data[0]).toEqual({ _row_id: 1, n: '1', g: 'x', maybe: null });
    expect(res.data.map((r) => r._row_id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('counts by default; without a count (withCount: false, as the grid asks) it says hasMore when a page is full', async () => {
    const { t, cookie, table } = await numbered(100);
    const page = async (body: Record<string, unknown>) => ok(await infiniteScroll(t, cookie, table.id, body));
    const uncounted = { withCount: false };
    expect(await page({ page: 2, pageSize: 50, ...uncounted })).toMatchObject({
      count: -1,
      totalPages: -1,
      hasMore: true,
    });
    expect(await page({ page: 3, pageSize: 50, ...uncounted })).toMatchObject({ count: -1, hasMore: false, data: [] });
    expect(await page({ page: 2, pageSize: 50 })).toMatchObject({
      count: 100,
      totalPages: 2,
      hasMore: false,
    });
    const third = await page({ page: 3, pageSize: 30, withCount: true });
    expect(third).toMatchObject({ page: 3, pageSize: 30, count: 100, totalPages: 4, hasMore: true });
    expect(third.data.map((r) => r._row_id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 61));
    const last = await page({ page: 4, pageSize: 30, withCount: true, forDisplay: true });
    expect(last.data).toHaveLength(10);
    expect(last.hasMore).toBe(false);
  });

  it('answers an empty table as one empty page', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const table = await createTable(t, cookie, { name: 'Empty', columns: [{ displayName: 'A' }] });
    expect(ok(await infiniteScroll(t, cookie, table.id, { withCount: true }))).toEqual({
      page: 1,
      pageSize: 50,
      count: 0,
      totalPages: 1,
      hasMore: false,
      data: [],
    });
  });

  it.each(['Ascending', 'Descending'] as const)(
    'pages through every row exactly once when sorting %s by a column full of ties',
    async (direction) => {
      const { t, cookie, table } = await numbered(250);
      const rows = await allPages(t, cookie, table, { pageSize: 7, sorting: [{ columnKey: 'g', direction }] });
      const ids = rows.map((r) => r._row_id);
      expect(ids).toHaveLength(250);
      expect(new Set(ids).size).toBe(250);
      const groups = rows.map((r) => String(r.g));
      const sorted = [...groups].sort();
      expect(groups).toEqual(direction === 'Ascending' ? sorted : sorted.reverse());
    },
  );

  it('sorts by several columns, blanks last in either direction', async () => {
    const { t, cookie, table } = await numbered(30);
    for (const direction of ['Ascending', 'Descending'] as const) {
      const rows = await allPages(t, cookie, table, {
        pageSize: 4,
        sorting: [{ columnKey: 'maybe', direction }, { columnKey: 'g', direction: 'Descending' }, { columnKey: 'n' }],
      });
      expect(rows).toHaveLength(30);
      expect(rows.slice(-3).map((r) => r.maybe)).toEqual([null, null, null]);
      const valued = rows.slice(0, 27);
      expect(valued.map((r) => r.g)).toEqual([...valued.map((r) => String(r.g))].sort().reverse());
      // Within a group, text order of n: '11' before '2'.
      const zs = valued.filter((r) => r.g === 'z').map((r) => String(r.n));
      expect(zs).toEqual([...zs].sort());
    }
  });

  it('refuses an unknown column, a bad page and a bad direction with 400', async () => {
    const { t, cookie, table } = await numbered(3);
    const page = (body: unknown) => infiniteScroll(t, cookie, table.id, body);
    expect(expectError(await page({ sorting: [{ columnKey: 'nope' }] }), 400)).toBe('Unknown column "nope"');
    const filterGroups = [{ filters: [{ columnKey: 'nope', operator: 'Exists' }] }];
    expect(expectError(await page({ filterGroups }), 400)).toBe('Unknown column "nope"');
    expectError(await page({ page: 0 }), 400);
    expectError(await page({ pageSize: 1_001 }), 400);
    expectError(await page({ sorting: [{ columnKey: 'n', direction: 'Up' }] }), 400);
    expectError(await page({ filterGroups: 'n = 1' }), 400);
  });
});

describe('POST /api/tables/StaticTable/{id}/data/count', () => {
  it('counts every row, or the rows matching the filter groups', async () => {
    const { t, cookie, table } = await numbered(95);
    const count = (body?: unknown) =>
      call<{ totalCount: number }>(t.server, 'POST', `/api/tables/StaticTable/${table.id}/data/count`, {
        cookie,
        body,
      });
    expect(ok(await count())).toEqual({ totalCount: 95 });
    expect(ok(await count({ filterGroups: [] }))).toEqual({ totalCount: 95 });
    const filterGroups = [
      { filters: [{ columnKey: 'g', operator: 'Equals', value: 'x' }] },
      { filters: [{ columnKey: 'maybe', operator: 'Exists' }] },
    ];
    // 32 rows in group x, of which rows 1, 31, 61 and 91 are blank in maybe.
    expect(ok(await count({ filterGroups }))).toEqual({ totalCount: 28 });
    const res = ok(await infiniteScroll(t, cookie, table.id, { filterGroups, pageSize: 10, withCount: true }));
    expect(res).toMatchObject({ count: 28, totalPages: 3, hasMore: true });
    expect(
      expectError(await count({ filterGroups: [{ filters: [{ columnKey: 'x', operator: 'Empty' }] }] }), 400),
    ).toBe('Unknown column "x"');
  });
});

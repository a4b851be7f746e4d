/**
 * A date or date-time the grid shows outside the years 0001-9999 (`-000043-03-15`, `+010000-…`) is a
 * filter value too: a user copies it from a cell into a filter and finds that row.
 */
import { describe, expect, it } from 'vitest';
import { makeApp, signIn } from '../helpers';
import { infiniteScroll, keyOf, ok, tableFromCsv } from '../static-tables/helpers';

describe('date filters in the grid’s own spelling', () => {
  it('finds BC dates and date-times, and year 10000, by the text the grid shows', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const table = await tableFromCsv(
      t,
      cookie,
      'id,day,at\n1,0044-03-15 BC,0044-03-15 10:00:00.5 BC\n2,2024-01-01,2024-01-01 09:00:00\n',
      'Eras',
    );
    const [day, at, id] = [keyOf(table, 'day'), keyOf(table, 'at'), keyOf(table, 'id')];
    const shown = table.rows.find((r) => r[id] === 1)!;
    expect([shown[day], shown[at]]).toEqual(['-000043-03-15', '-000043-03-15T10:00:00.500Z']);
    const ids = async (columnKey: string, operator: string, value: unknown) =>
      ok(
        await infiniteScroll(t, cookie, table.id, {
          page: 1,
          pageSize: 10,
          filterGroups: [{ filters: [{ columnKey, operator, value }] }],
        }),
      ).data.map((r) => r[id]);
    expect(await ids(day, 'Equals', shown[day])).toEqual([1]);
    expect(await ids(at, 'Equals', shown[at])).toEqual([1]);
    expect(await ids(day, 'LessThan', '0000-01-01')).toEqual([1]);
    expect(await ids(at, 'GreaterThan', '+010000-01-01T00:00:00.000Z')).toEqual([]);
  });
});

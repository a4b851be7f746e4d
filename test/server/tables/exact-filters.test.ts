/**
 * Filters through HTTP on whole numbers past 2^53 and on exact DECIMAL and HUGEINT columns: the
 * value a user types (text, or a JSON number where that is exact) reaches DuckDB with every digit,
 * bound in the column's own type, on a table, on a model read through the tables API and in a
 * model's own joins, filters and formulas.
 */
import { describe, expect, it } from 'vitest';
import type { Filter } from '../../../src/shared/tables';
import { STATIC_SCHEMA, warehouseTableName } from '../../../src/server/modules/static-tables/physical';
import { makeApp, me, signIn, type TestApp } from '../helpers';
import { addColumn, api, createModel, modelKey, rawColumn, versionRows, type Model } from '../models/helpers';
import { infiniteScroll, keyOf, ok, tableFromCsv, type StaticTable } from '../static-tables/helpers';

const CSV = [
  'Name,Big,Price,Huge',
  'a,9007199254740992,1,1',
  'b,9007199254740993,2,2',
  'c,9007199254740994,3,3',
  'd,9223372036854775807,4,4',
  'e,,,',
].join('\n');

/** The exact values the test writes into Price and Huge after the import (a CSV reads them as doubles). */
const EXACT: Record<string, [string, string]> = {
  a: ['99999999999999.999999', '170141183460469231731687303715884105727'],
  b: ['99999999999999.999998', '170141183460469231731687303715884105726'],
  c: ['0.000001', '-170141183460469231731687303715884105728'],
  d: ['-0.000001', '0'],
};

async function exactTable(t: TestApp, cookie: string): Promise<StaticTable> {
  const table = await tableFromCsv(t, cookie, CSV, 'Exact');
  expect(table.columns.map((c) => c.type)).toEqual(['Text', 'Number', 'Number', 'Number']);
  const accountId = (await me(t, cookie)).currentAccountId!;
  const warehouse = t.deps.warehouse.forAccount(accountId);
  const name = warehouseTableName(table.id);
  const qualified = `"${STATIC_SCHEMA}"."${name}"`;
  const q = (key: string) => `"${keyOf(table, key)}"`;
  // As an integration would store them: DECIMAL(20,6) and HUGEINT, through the table's writer lock.
  await warehouse.exclusive(`table:${STATIC_SCHEMA}.${name}`, async () => {
    await warehouse.run(`ALTER TABLE ${qualified} ALTER ${q('Price')} TYPE DECIMAL(20,6)`);
    await warehouse.run(`ALTER TABLE ${qualified} ALTER ${q('Huge')} TYPE HUGEINT`);
    for (const [row, [price, huge]] of Object.entries(EXACT)) {
      await warehouse.run(
        `UPDATE ${qualified} SET ${q('Price')} = CAST($1 AS DECIMAL(20,6)), ${q('Huge')} = CAST($2 AS HUGEINT) WHERE ${q('Name')} = $3`,
        [price, huge, row],
      );
    }
  });
  return table;
}

async function setup() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await exactTable(t, cookie);
  const names = async (column: string, operator: Filter['operator'], value?: string | number, value2?: string) => {
    const filters = [{ columnKey: keyOf(table, column), operator, value, value2, conditionOperator: 'Or' }];
    const res = ok(await infiniteScroll(t, cookie, table.id, { filterGroups: [{ filters }], pageSize: 100 }));
    return res.data.map((row) => row[keyOf(table, 'Name')]);
  };
  return { t, cookie, table, names };
}

describe('exact filters through the tables API', () => {
  it('compares BIGINT values that differ only past 2^53, typed as text or as a number', async () => {
    const { names } = await setup();
    expect(await names('Big', 'Equals', '9007199254740993')).toEqual(['b']);
    expect(await names('Big', 'GreaterThan', '9007199254740992')).toEqual(['b', 'c', 'd']);
    expect(await names('Big', 'GreaterThan', 9007199254740992)).toEqual(['b', 'c', 'd']);
    expect(await names('Big', 'LessThan', '9007199254740994')).toEqual(['a', 'b']);
    expect(await names('Big', 'GreaterThanOrEquals', '9223372036854775807')).toEqual(['d']);
    expect(await names('Big', 'NotEquals', '9007199254740993')).toEqual(['a', 'c', 'd', 'e']);
    expect(await names('Big', 'Between', '9007199254740993', '9007199254740993.5')).toEqual(['b']);
    expect(await names('Big', 'LessThanOrEquals', '9007199254740992.999')).toEqual(['a']);
    expect(await names('Big', 'GreaterThan', '1e30')).toEqual([]);
    expect(await names('Big', 'LessThan', '1e30')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('compares DECIMAL(20,6) and HUGEINT values with every digit', async () => {
    const { names } = await setup();
    expect(await names('Price', 'Equals', '99999999999999.999999')).toEqual(['a']);
    expect(await names('Price', 'LessThan', '99999999999999.999999')).toEqual(['b', 'c', 'd']);
    expect(await names('Price', 'GreaterThan', '0.0000005')).toEqual(['a', 'b', 'c']);
    expect(await names('Price', 'Equals', '0.0000005')).toEqual([]);
    expect(await names('Huge', 'Equals', '170141183460469231731687303715884105726')).toEqual(['b']);
    expect(await names('Huge', 'LessThan', '0')).toEqual(['c']);
    expect(await names('Huge', 'GreaterThan', '170141183460469231731687303715884105726.5')).toEqual(['a']);
  });

  it('counts and downloads with the same exact filter', async () => {
    const { t, cookie, table } = await setup();
    const filterGroups = [
      { filters: [{ columnKey: keyOf(table, 'Big'), operator: 'GreaterThan', value: '9007199254740992' }] },
    ];
    const count = ok(
      await api<{ totalCount: number }>(t, cookie, 'POST', `/api/tables/StaticTable/${table.id}/data/count`, {
        filterGroups,
      }),
    );
    expect(count.totalCount).toBe(3);
    const query = new URLSearchParams({ format: 'csv', filterGroups: JSON.stringify(filterGroups) });
    const res = await t.server.inject({
      method: 'GET',
      url: `/api/tables/StaticTable/${table.id}/download?${query}`,
      headers: { cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual([
      '9007199254740993',
      '9007199254740994',
      '9223372036854775807',
    ]);
  });
});

describe("exact filters through the static table's query path", () => {
  it('answers the rows whose DECIMAL and BIGINT values pass, every digit compared', async () => {
    const { t, cookie, table } = await setup();
    const rows = async (filters: unknown[]) => {
      const res = await api<Record<string, unknown>[]>(t, cookie, 'POST', `/api/static-tables/${table.id}/query`, {
        filters,
      });
      return ok(res).map((row) => row[keyOf(table, 'Name')]);
    };
    expect(
      await rows([
        { columnKey: keyOf(table, 'Price'), operator: 'GreaterThanOrEquals', value: '99999999999999.999999' },
      ]),
    ).toEqual(['a']);
    expect(
      await rows([
        { columnKey: keyOf(table, 'Big'), operator: 'Equals', value: '9007199254740994' },
        { columnKey: keyOf(table, 'Huge'), operator: 'Equals', value: '0', conditionOperator: 'Or' },
      ]),
    ).toEqual(['c', 'd']);
  });
});

describe('exact filters on models', () => {
  async function bigModel(t: TestApp, cookie: string, table: StaticTable): Promise<Model> {
    const model = await createModel(t, cookie, 'Big keys');
    await addColumn(t, cookie, model.id, rawColumn(table, 'Name'));
    const withBig = await addColumn(t, cookie, model.id, rawColumn(table, 'Big'));
    return addColumn(t, cookie, model.id, {
      displayName: 'Label',
      function: `'#' & [${modelKey(withBig, 'Big')}]`,
    });
  }

  it('filters a draft model read through the tables API, and writes big numbers in formulas exactly', async () => {
    const { t, cookie, table } = await setup();
    const model = await bigModel(t, cookie, table);
    const filterGroups = [
      { filters: [{ columnKey: modelKey(model, 'Big'), operator: 'Equals', value: '9007199254740993' }] },
    ];
    const rows = await versionRows(t, cookie, model.versionId, { filterGroups });
    expect(rows.map((row) => [row[modelKey(model, 'Name')], row[modelKey(model, 'Label')]])).toEqual([
      ['b', '#9007199254740993'],
    ]);
  });

  it("applies the model's own filter and join on BIGINT keys exactly", async () => {
    const { t, cookie, table } = await setup();
    const other = await tableFromCsv(t, cookie, 'Key,Tag\n9007199254740993,x\n9007199254740992,y\n', 'Other');
    const model = await bigModel(t, cookie, table);
    ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/joins`, {
        joins: [
          {
            leftTable: { sourceId: table.id, sourceType: 'StaticTable' },
            rightTable: { sourceId: other.id, sourceType: 'StaticTable' },
            joinType: 'Inner',
            joinGroups: [
              {
                conditions: [
                  { leftColumnKey: keyOf(table, 'Big'), operator: 'Equals', rightColumnKey: keyOf(other, 'Key') },
                ],
              },
            ],
          },
        ],
      }),
    );
    const withTag = await addColumn(t, cookie, model.id, rawColumn(other, 'Tag'));
    const filtered = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/filter_groups`, {
        filterGroups: [
          { filters: [{ columnKey: modelKey(withTag, 'Big'), operator: 'LessThan', value: '9007199254740993' }] },
        ],
      }),
    );
    const rows = await versionRows(t, cookie, filtered.versionId);
    expect(rows.map((row) => [row[modelKey(filtered, 'Name')], row[modelKey(filtered, 'Tag')]])).toEqual([['a', 'y']]);
  });
});

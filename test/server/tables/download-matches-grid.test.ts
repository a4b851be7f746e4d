/**
 * Exports are what the user sees: for each table kind (static table, integration dataset, model
 * version) and each export format (CSV, Parquet), the file's rows, their order and their values
 * equal what the grid's own data call answers for the same filters and sort, read page by page.
 * The data holds integers, integers beyond 2^53, decimals (doubles and exact DECIMALs), dates,
 * date-times, booleans, nulls, and text with commas, quotes and line breaks.
 */
import { describe, expect, it } from 'vitest';
import type { Column } from '../../../src/shared/tables';
import { call, listen, type CallResult, type TestApp } from '../helpers';
import { api, createIntegration, definitionNamed, type Integration } from '../integrations/helpers';
import { addColumn, createModel, rawColumn, type Model } from '../models/helpers';
import { appWithTeam, keyOf, ok, tableFromCsv, type StaticTable } from '../static-tables/helpers';
import {
  AWKWARD_CSV as CSV,
  expectCsvMatchesGrid,
  expectParquetMatchesGrid,
  gridRows,
  parseCsv,
  readParquet,
  type CsvCell,
} from './export-compare';

type Download = (format: 'csv' | 'parquet', request?: GridRequest) => Promise<CallResult<string>>;
interface GridRequest {
  filterGroups?: unknown;
  sorting?: unknown;
}

/** The grid's requests each export is checked against: none, sorts of each kind, and a filter with a sort. */
function requests(key: (name: string) => string): GridRequest[] {
  return [
    {},
    { sorting: [{ columnKey: key('amount'), direction: 'Descending' }] },
    { sorting: [{ columnKey: key('big'), direction: 'Ascending' }] },
    {
      sorting: [
        { columnKey: key('label'), direction: 'Ascending' },
        { columnKey: key('day'), direction: 'Descending' },
      ],
    },
    {
      filterGroups: [{ filters: [{ columnKey: key('amount'), operator: 'GreaterThan', value: 0 }] }],
      sorting: [{ columnKey: key('at'), direction: 'Descending' }],
    },
  ];
}

/** POST .../download as the grid's Download menu sends it: a form with the filters and sort as JSON text. */
function formDownload(t: TestApp, cookie: string, type: string, id: string): Download {
  return (format, request = {}) => {
    const fields: Record<string, string> = { format };
    if (request.filterGroups) fields.filterGroups = JSON.stringify(request.filterGroups);
    if (request.sorting) fields.sorting = JSON.stringify(request.sorting);
    return call<string>(t.server, 'POST', `/api/tables/${type}/${id}/download`, {
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  };
}

/** Every request, both formats: the file equals the grid's rows. */
async function expectExportsMatchGrid(
  t: TestApp,
  cookie: string,
  target: { type: string; id: string; columns: Column[] },
  download: Download,
  checks: GridRequest[],
): Promise<void> {
  for (const request of checks) {
    const rows = await gridRows(t, cookie, target.type, target.id, request);
    expect(rows.length).toBeGreaterThan(0);
    const csv = await download('csv', request);
    expect(csv.status, csv.body).toBe(200);
    expectCsvMatchesGrid(csv.body, target.columns, rows);
    const parquet = await download('parquet', request);
    expect(parquet.status, parquet.body).toBe(200);
    expectParquetMatchesGrid(await readParquet(t, parquet.raw.rawPayload), target.columns, rows);
  }
}

/** The CSV's cells of the named column, top to bottom. */
function csvColumn(csv: string, name: string): CsvCell[] {
  const [header, ...records] = parseCsv(csv);
  const index = header!.findIndex((cell) => cell.text === name);
  return records.map((record) => record[index]!);
}

async function staticTable(t: TestApp, cookie: string): Promise<StaticTable> {
  return tableFromCsv(t, cookie, CSV, 'Awkward values');
}

describe('static table downloads equal the grid', () => {
  it('CSV and Parquet hold the grid rows, in the grid order, with the grid values, for every sort and filter', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await staticTable(t, cookie);
    const target = { type: 'StaticTable', id: table.id, columns: table.columns };
    const download = formDownload(t, cookie, 'StaticTable', table.id);
    await expectExportsMatchGrid(
      t,
      cookie,
      target,
      download,
      requests((name) => keyOf(table, name)),
    );

    // What that means, spelled out: integers stay integers, big integers and tiny doubles keep every digit.
    const csv = (await download('csv')).body;
    expect(csvColumn(csv, 'amount').map((c) => c.text)).toEqual([
      '3804',
      '25.5',
      '',
      '0.1',
      '-7',
      '3804',
      '100000000000000000',
      '1e-7',
    ]);
    expect(csvColumn(csv, 'big').map((c) => c.text)).toEqual([
      '1234567890123456789',
      '-1234567890123456789',
      '9007199254740993',
      '',
      '12',
      '9007199254740992',
      '-9007199254740993',
      '0',
    ]);
    expect(csvColumn(csv, 'label')[2]).toEqual({ text: 'line one\nline two', quoted: true });

    // Parquet keeps the column types: BIGINT stays BIGINT, dates stay dates.
    const { types } = await readParquet(t, (await download('parquet')).raw.rawPayload);
    expect(types).toMatchObject({ big: 'BIGINT', day: 'DATE', at: 'TIMESTAMP', amount: 'DOUBLE', flag: 'BOOLEAN' });
  });

  it('a link (GET with the filters and sort as query text) gives the same file as the form', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await staticTable(t, cookie);
    const [, sorted] = requests((name) => keyOf(table, name));
    const search = new URLSearchParams({ format: 'csv', sorting: JSON.stringify(sorted!.sorting) });
    const link = await call<string>(t.server, 'GET', `/api/tables/StaticTable/${table.id}/download?${search}`, {
      cookie,
    });
    const form = await formDownload(t, cookie, 'StaticTable', table.id)('csv', sorted);
    expect(link.body).toBe(form.body);
    expectCsvMatchesGrid(link.body, table.columns, await gridRows(t, cookie, 'StaticTable', table.id, sorted!));
  });

  it('repeated display names get unique headers, so every column reads back by name', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = ok(
      await call<StaticTable>(t.server, 'POST', '/api/static-tables', {
        cookie,
        body: { name: 'Twins', columns: [{ displayName: 'A' }, { displayName: 'B' }], rows: [['1', '2']] },
      }),
      201,
    );
    // Column names need not be unique in every table kind (a model may show two columns alike).
    await t.deps.db
      .updateTable('static_table_columns')
      .set({ display_name: 'A' })
      .where('column_key', '=', keyOf(table, 'B'))
      .execute();
    const csv = await formDownload(t, cookie, 'StaticTable', table.id)('csv');
    expect(csv.body).toBe('A,A (2)\n1,2\n');
  });
});

/** A Webhook integration whose dataset holds the awkward rows, in the exact types a sync writes. */
async function webhookDataset(t: TestApp, cookie: string) {
  const definition = await definitionNamed(t, cookie, 'Webhook');
  const hook = ok(
    await createIntegration(t, cookie, { integrationDefinitionId: definition.id, name: 'Hooks', schemaName: 'hooks' }),
    201,
  );
  const base = await listen(t);
  const lines = parseCsv(CSV).slice(1);
  const records = lines.map((cells) => ({
    id: Number(cells[0]!.text),
    label: cells[1]!.text,
    amount: cells[2]!.text === '' ? null : Number(cells[2]!.text),
    // Stand-ins, replaced below by values a JSON number cannot carry.
    big: cells[3]!.text === '' ? null : 1,
    exact: 0.5,
    day: cells[4]!.text || null,
    at: cells[5]!.text ? `${cells[5]!.text.replace(' ', 'T')}Z` : null,
    flag: cells[6]!.text === '' ? null : cells[6]!.text === 'true',
  }));
  const res = await fetch(`${base}${hook.webhookUrl}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(records),
  });
  expect(res.status, await res.text()).toBe(200);
  const dataset = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${hook.id}`)).datasets.find(
    (d) => d.name === 'records',
  )!;
  // Exact integers past 2^53 and exact decimals, as a connector that keeps them writes them.
  const { account_id: accountId } = await t.deps.db
    .selectFrom('integrations')
    .select('account_id')
    .where('id', '=', hook.id)
    .executeTakeFirstOrThrow();
  const warehouse = t.deps.warehouse.forAccount(accountId);
  const bigs = lines.map((cells) => (cells[3]!.text === '' ? 'NULL' : `${cells[3]!.text}::BIGINT`));
  const exact = ['99999999999999.999999', '204142800000.079190', null, '0.000001', '-7', '3804.000000', '1', '0'];
  const cases = (values: (string | null)[]) => values.map((v, i) => `WHEN ${i + 1} THEN ${v ?? 'NULL'}`).join(' ');
  await warehouse.exclusive('table:hooks.records', () =>
    warehouse.run(
      `ALTER TABLE hooks.records ALTER exact TYPE DECIMAL(20,6);
       UPDATE hooks.records SET big = CASE id ${cases(bigs)} END,
         exact = CASE id ${cases(exact.map((e) => (e === null ? null : `'${e}'::DECIMAL(20,6)`)))} END`,
    ),
  );
  return dataset;
}

describe('integration dataset downloads equal the grid', () => {
  it('CSV and Parquet hold the grid rows, in the grid order, with the grid values, for every sort and filter', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const dataset = await webhookDataset(t, cookie);
    const summary = ok(
      await api<{ columns: Column[] }>(t, cookie, 'GET', `/api/tables/IntegrationDataset/${dataset.id}`),
    );
    const key = (name: string) => summary.columns.find((c) => c.displayName === name)!.columnKey;
    const target = { type: 'IntegrationDataset', id: dataset.id, columns: summary.columns };
    const download = formDownload(t, cookie, 'IntegrationDataset', dataset.id);
    await expectExportsMatchGrid(t, cookie, target, download, requests(key));
    const { types } = await readParquet(t, (await download('parquet')).raw.rawPayload);
    expect(types).toMatchObject({ big: 'BIGINT', exact: 'DECIMAL(20,6)', day: 'DATE', flag: 'BOOLEAN' });
  });
});

/** A model over the static table: its columns, a function column, and (optionally) a sort of its own. */
async function modelOver(t: TestApp, cookie: string, table: StaticTable): Promise<Model> {
  const model = await createModel(t, cookie, 'Awkward model');
  let current = model;
  for (const name of ['label', 'id', 'amount', 'big', 'day', 'at', 'flag']) {
    current = await addColumn(t, cookie, model.id, rawColumn(table, name));
  }
  const big = current.columns.find((c) => c.displayName === 'big')!.columnKey;
  return addColumn(t, cookie, model.id, { displayName: 'big plus one', function: `[${big}] + 1` });
}

function modelTarget(model: Model) {
  const columns: Column[] = [...model.columns]
    .sort((a, b) => a.order - b.order)
    .map((c, order) => ({
      columnKey: c.columnKey,
      displayName: c.displayName,
      description: c.description,
      order,
      type: c.type,
    }));
  return { type: 'ModelVersion', id: model.versionId, columns };
}

describe('model version exports equal the grid', () => {
  it('follow the grid sort and filters, else the model’s own sort, else its base-table order', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await staticTable(t, cookie);
    let model = await modelOver(t, cookie, table);
    const key = (name: string) => model.columns.find((c) => c.displayName === name)!.columnKey;
    const target = modelTarget(model);
    const download = formDownload(t, cookie, 'ModelVersion', model.versionId);
    await expectExportsMatchGrid(t, cookie, target, download, [
      ...requests(key),
      { sorting: [{ columnKey: key('big plus one'), direction: 'Descending' }] },
    ]);

    // The model's own sort: the grid sends none, and neither do the menu's 'Export data' link and the grid's download.
    model = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/sort`, {
        sort: [
          { columnKey: key('amount'), direction: 'Descending' },
          { columnKey: key('id'), direction: 'Descending' },
        ],
      }),
    );
    const exportLink: Download = (format, request = {}) => {
      const search = new URLSearchParams({ format });
      if (request.sorting) search.set('sorting', JSON.stringify(request.sorting));
      if (request.filterGroups) search.set('filterGroups', JSON.stringify(request.filterGroups));
      return call<string>(t.server, 'GET', `/api/models/versions/${model.versionId}/export?${search}`, { cookie });
    };
    await expectExportsMatchGrid(t, cookie, modelTarget(model), exportLink, [{}, requests(key)[2]!]);
    await expectExportsMatchGrid(t, cookie, modelTarget(model), download, [{}]);
    const ids = csvColumn((await exportLink('csv')).body, 'id').map((c) => c.text);
    expect(ids).toEqual(['7', '6', '1', '2', '4', '8', '5', '3']);

    // Published: the version's view, the same rows in the same order.
    const published = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/publish`));
    expect(published.status).toBe('Active');
    const publishedLink: Download = (format) =>
      call<string>(t.server, 'GET', `/api/models/versions/${published.versionId}/export?format=${format}`, { cookie });
    await expectExportsMatchGrid(t, cookie, modelTarget(published), publishedLink, [{}]);
    const { types } = await readParquet(t, (await publishedLink('parquet')).raw.rawPayload);
    expect(types).toMatchObject({ big: 'BIGINT', day: 'DATE', at: 'TIMESTAMP', amount: 'DOUBLE', label: 'VARCHAR' });
    expect(csvColumn((await publishedLink('csv')).body, 'id').map((c) => c.text)).toEqual(ids);
  });
});

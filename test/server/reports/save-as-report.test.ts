/**
 * "Save as report" from each origin in each format holds what the screen shows: a table's and a model
 * sheet's rows with the grid's filters and sort (CSV and Parquet byte for byte the download's, XLSX
 * cell by cell the grid's values), a pivot as its export writes it, a model chart's categories; a PDF
 * holds the same rows as text and, for a pivot or a chart, the chart drawn in the series' colors.
 * The call answers at once with a Pending file; a failure leaves the file Failed with its reason;
 * the requester is notified; read_only members and other accounts are refused.
 */
import { describe, expect, it } from 'vitest';
import { SERIES_HEX } from '../../../src/shared/chart-data';
import { MESSAGES } from '../../../src/shared/messages';
import type { Pivot } from '../../../src/shared/pivots';
import type { ReportProgress } from '../../../src/shared/reports';
import { buildApp } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { call, expectError, type TestApp } from '../helpers';
import { addColumn, createModel, joinedModel, makeShop, rawColumn, type Model } from '../models/helpers';
import { appWithTeam, appWithTwoTeams, ok, uploadCsv, type StaticTable } from '../static-tables/helpers';
import {
  expectCsvMatchesGrid,
  expectParquetMatchesGrid,
  gridRows,
  meaning,
  parseCsv,
  readParquet,
  readXlsx,
} from '../tables/export-compare';
import { pixels, readPdf, saveReport, savedReport } from './helpers';

const VIEW = {
  filterGroups: [{ filters: [{ columnKey: '', operator: 'GreaterThan', value: 5 }] }],
  sorting: [{ columnKey: '', direction: 'Descending' }],
};

/** The grid's view of Orders: amount above 5, largest first. */
function ordersView(orders: StaticTable) {
  const amount = orders.columns.find((c) => c.displayName === 'amount')!.columnKey;
  return {
    filterGroups: [{ filters: [{ ...VIEW.filterGroups[0]!.filters[0]!, columnKey: amount }] }],
    sorting: [{ columnKey: amount, direction: 'Descending' }],
  };
}

async function pivotModel(t: TestApp, cookie: string, orders: StaticTable, chart: Pivot['chart']): Promise<Model> {
  const model = await createModel(t, cookie, 'Orders model');
  await addColumn(t, cookie, model.id, rawColumn(orders, 'customer_id', 'Customer'));
  const current = await addColumn(t, cookie, model.id, rawColumn(orders, 'amount', 'Amount'));
  const key = (name: string) => current.columns.find((c) => c.displayName === name)!.columnKey;
  const pivot: Pivot = {
    key: 'bycustomer',
    name: 'By customer',
    filters: [],
    rows: [{ column: key('Customer'), sort: { direction: 'Ascending', valueIndex: null }, grain: null }],
    columns: [],
    values: [
      { column: key('Amount'), function: 'Sum', showAs: 'Default', displayName: null },
      { column: key('Amount'), function: 'Sum', showAs: 'PercentOfGrandTotal', displayName: null },
    ],
    showRowTotals: false,
    showColumnTotals: true,
    chart,
  };
  return ok(
    await call<Model>(t.server, 'PUT', `/api/models/${model.id}/pivots`, { cookie, body: { pivots: [pivot] } }),
  );
}

describe('Save as report', () => {
  it('a static table in each format holds the rows the grid shows with its filters and sort', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const { orders } = await makeShop(t, cookie);
    const view = ordersView(orders);
    const rows = await gridRows(t, cookie, 'StaticTable', orders.id, view);
    expect(rows.map((r) => r[orders.columns[0]!.columnKey])).toEqual([4, 1, 2]);
    const source = { kind: 'StaticTable', id: orders.id, ...view };

    const csv = await savedReport(t, cookie, { name: 'Big orders', format: 'csv', source });
    expect(csv.report.name).toBe('Big orders.csv');
    expectCsvMatchesGrid(csv.text, orders.columns, rows);
    const query = new URLSearchParams({
      format: 'csv',
      filterGroups: JSON.stringify(view.filterGroups),
      sorting: JSON.stringify(view.sorting),
    });
    const download = await call<string>(t.server, 'GET', `/api/tables/StaticTable/${orders.id}/download?${query}`, {
      cookie,
    });
    expect(csv.text).toBe(download.raw.body);

    const parquet = await savedReport(t, cookie, { name: 'Big orders', format: 'parquet', source });
    expectParquetMatchesGrid(await readParquet(t, parquet.bytes), orders.columns, rows);

    const xlsx = await savedReport(t, cookie, { name: 'Big orders', format: 'xlsx', source });
    expect(xlsx.contentType).toContain('spreadsheetml');
    const [header, ...sheet] = await readXlsx(xlsx.bytes);
    expect(header!.map((c) => c.value)).toEqual(orders.columns.map((c) => c.displayName));
    expect(sheet.map((r) => orders.columns.map((c, i) => meaning(r[i]!.value, c.type)))).toEqual(
      rows.map((r) => orders.columns.map((c) => meaning(r[c.columnKey], c.type))),
    );

    const pdf = await savedReport(t, cookie, { name: 'Big orders', format: 'pdf', source });
    expect(pdf.contentType).toContain('application/pdf');
    const { text, firstPage, pages } = readPdf(t, pdf.bytes);
    expect(pages).toBe(1);
    expect(text).toContain('Orders');
    expect(text).toContain('filtered, sorted as on screen');
    for (const name of ['order_id', 'customer_id', 'amount', 'placed']) expect(text).toContain(name);
    // The rows in the grid's order, each on its own line; the filtered-out order is not there.
    const lines = text.split('\n').filter((line) => /^\s*\d+\s+1\d\s/.test(line));
    expect(lines.map((line) => line.trim().split(/\s+/).slice(0, 3))).toEqual([
      ['4', '12', '100'],
      ['1', '10', '25.5'],
      ['2', '11', '10'],
    ]);
    expect(pixels(firstPage, '#000000').inked).toBeGreaterThan(500);
  });

  it('a model sheet is saved as its download writes it (the version on screen)', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const model = await joinedModel(t, cookie, await makeShop(t, cookie));
    const source = { kind: 'Model', modelId: model.id, versionId: model.versionId, filterGroups: [], sorting: [] };
    const csv = await savedReport(t, cookie, { name: 'Sales', format: 'csv', source });
    const download = await call<string>(t.server, 'GET', `/api/models/versions/${model.versionId}/export?format=csv`, {
      cookie,
    });
    expect(download.status).toBe(200);
    expect(csv.text).toBe(download.raw.body);
    const parquet = await savedReport(t, cookie, { name: 'Sales', format: 'parquet', source });
    const exported = await call(t.server, 'GET', `/api/models/versions/${model.versionId}/export?format=parquet`, {
      cookie,
    });
    expect((await readParquet(t, parquet.bytes)).rows).toEqual((await readParquet(t, exported.raw.rawPayload)).rows);

    const pdf = readPdf(t, (await savedReport(t, cookie, { name: 'Sales', format: 'pdf', source })).bytes);
    expect(pdf.text).toContain('Model Sales');
    for (const name of ['Order', 'Amount', 'Customer', 'Doubled', 'Ada', 'Bob']) expect(pdf.text).toContain(name);

    const files = ok(
      await call<{ data: { id: string; originEntityType: string; originEntityTypeId: string }[] }>(
        t.server,
        'GET',
        '/api/files?type=Report&EntityType=Model',
        { cookie },
      ),
    );
    expect(files.data).toHaveLength(3);
    expect(new Set(files.data.map((f) => `${f.originEntityType}:${f.originEntityTypeId}`))).toEqual(
      new Set([`Model:${model.id}`]),
    );
  });

  it('a pivot is saved as its export writes it, and its PDF draws the saved chart', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const { orders } = await makeShop(t, cookie);
    const model = await pivotModel(t, cookie, orders, { type: 'pie', shown: true });
    const source = { kind: 'Pivot', modelId: model.id, versionId: model.versionId, pivotKey: 'bycustomer' };
    const exportOf = (format: string) =>
      call<string>(
        t.server,
        'GET',
        `/api/models/${model.id}/export/pivot?pivotKey=bycustomer&format=${format}&versionId=${model.versionId}`,
        { cookie },
      );

    const csv = await savedReport(t, cookie, { name: 'By customer', format: 'csv', source });
    const exportedCsv = (await exportOf('csv')).raw.body;
    expect(csv.text).toBe(exportedCsv);
    const xlsx = await savedReport(t, cookie, { name: 'By customer', format: 'xlsx', source });
    expect(await readXlsx(xlsx.bytes)).toEqual(await readXlsx((await exportOf('xlsx')).raw.rawPayload));

    const parquet = await readParquet(
      t,
      (await savedReport(t, cookie, { name: 'p', format: 'parquet', source })).bytes,
    );
    const [header, ...records] = parseCsv(exportedCsv);
    expect(Object.keys(parquet.types)).toEqual(header!.map((c) => c.text));
    expect(parquet.rows.map((row) => Object.values(row).map((v) => (v === null ? '' : String(v))))).toEqual(
      records.map((r) => r.map((c) => c.text)),
    );

    const pdf = readPdf(t, (await savedReport(t, cookie, { name: 'By customer', format: 'pdf', source })).bytes);
    expect(pdf.text).toContain('Orders model - By customer');
    expect(pdf.text).toContain('Pivot By customer of model Orders model');
    expect(pdf.text).toMatch(/Total\s+140\.00\s+100\.00%/);
    expect(pdf.text).toMatch(/10\s+30\.00\s+21\.43%/);
    // The pie's slices, one per customer, in the page's series colors.
    for (const color of SERIES_HEX.slice(0, 3)) expect(pixels(pdf.firstPage, color).near).toBeGreaterThan(200);
  });

  it("a model chart is saved with the chart's categories and drawn in its PDF", async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const { orders } = await makeShop(t, cookie);
    const model = await pivotModel(t, cookie, orders, null);
    const key = (name: string) => model.columns.find((c) => c.displayName === name)!.columnKey;
    const chart = { category: { column: key('Customer'), grain: null }, series: [{ column: key('Amount') }] };
    const source = { kind: 'ModelChart', modelId: model.id, versionId: model.versionId, chart, chartType: 'bar' };
    const csv = await savedReport(t, cookie, { name: 'Chart', format: 'csv', source });
    const [, ...records] = parseCsv(csv.text);
    // Largest first, as the chart draws them.
    expect(records.map((r) => r.map((c) => c.text))).toEqual([
      ['12', '100'],
      ['10', '30'],
      ['11', '10'],
    ]);
    const pdf = readPdf(t, (await savedReport(t, cookie, { name: 'Chart', format: 'pdf', source })).bytes);
    expect(pdf.text).toContain('Chart of model Orders model');
    expect(pixels(pdf.firstPage, SERIES_HEX[0]).near).toBeGreaterThan(300);
  });

  it('answers at once with the Pending file; a failure marks it Failed with the reason; the requester is told', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const { orders } = await makeShop(t, cookie);
    const model = await pivotModel(t, cookie, orders, null);
    const chart = { category: { column: 'no_such_column', grain: null }, series: [{ column: 'no_such_column' }] };
    const source = { kind: 'ModelChart', modelId: model.id, versionId: model.versionId, chart };
    const created = await saveReport(t, cookie, { name: 'Broken', format: 'pdf', source });
    expect(created).toMatchObject({ name: 'Broken.pdf', status: 'Pending', progress: 0 });
    await t.services.reports.idle();
    const failed = ok(await call<ReportProgress>(t.server, 'GET', `/api/reports/${created.id}/progress`, { cookie }));
    expect(failed.status).toBe('Failed');
    expect(failed.error).toMatch(/no_such_column|column/i);

    await savedReport(t, cookie, { name: 'Fine', format: 'csv', source: { kind: 'StaticTable', id: orders.id } });
    const list = ok(
      await call<{ data: { title: string; body: string; severity: string; target: { type: string; id: string } }[] }>(
        t.server,
        'GET',
        '/api/notifications',
        { cookie },
      ),
    );
    const titles = list.data.map((n) => `${n.title}|${n.severity}|${n.target.type}`);
    expect(titles).toContain('Report ready|Info|File');
    expect(titles).toContain('Report failed|Error|File');
    expect(list.data.find((n) => n.title === 'Report ready')!.body).toContain('Fine.csv');
  });

  it('refuses read_only members, empty pivots, and ids of other accounts', async () => {
    const { t, a, b } = await appWithTwoTeams();
    const { orders } = await makeShop(t, a.owner.cookie);
    const model = await pivotModel(t, a.owner.cookie, orders, null);
    const table = { name: 'r', format: 'csv', source: { kind: 'StaticTable', id: orders.id } };
    expect(
      expectError(await call(t.server, 'POST', '/api/reports', { cookie: a.readOnly.cookie, body: table }), 403),
    ).toBe(MESSAGES.readOnly);
    expectError(await call(t.server, 'POST', '/api/reports', { cookie: b.owner.cookie, body: table }), 404);
    const pivot = { kind: 'Pivot', modelId: model.id, versionId: model.versionId, pivotKey: 'bycustomer' };
    expectError(
      await call(t.server, 'POST', '/api/reports', { cookie: b.owner.cookie, body: { ...table, source: pivot } }),
      404,
    );
    const empty = { ...model.pivots[0]!, key: 'empty', rows: [], values: [] };
    await call(t.server, 'PUT', `/api/models/${model.id}/pivots`, {
      cookie: a.owner.cookie,
      body: { pivots: [...model.pivots, empty] },
    });
    const emptySource = { ...pivot, pivotKey: 'empty' };
    expect(
      expectError(
        await call(t.server, 'POST', '/api/reports', {
          cookie: a.owner.cookie,
          body: { ...table, source: emptySource },
        }),
        400,
      ),
    ).toContain('empty');
    // Nothing was created by the refused calls.
    const files = ok(
      await call<{ count: number }>(t.server, 'GET', '/api/files?type=Report', { cookie: a.owner.cookie }),
    );
    expect(files.count).toBe(0);
  });

  it('records progress as it goes, and a report a crash left Pending is Failed after the restart', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const rows = ['n,label', ...Array.from({ length: 5_100 }, (_, i) => `${i},row ${i}`)].join('\n');
    const { orders } = await makeShop(t, cookie);
    const big = ok(
      await call<{ id: string }>(t.server, 'POST', '/api/static-tables', { cookie, body: { name: 'Big' } }),
      201,
    );
    ok(await uploadCsv(t, cookie, big.id, rows));
    const seen: number[] = [];
    const setProgress = t.services.files.setProgress;
    t.services.files.setProgress = async (id, percent) => {
      seen.push(percent);
      await setProgress(id, percent);
    };
    const xlsx = await savedReport(t, cookie, {
      name: 'Big',
      format: 'xlsx',
      source: { kind: 'StaticTable', id: big.id },
    });
    expect(xlsx.report.progress).toBe(100);
    expect(seen[0]).toBe(1);
    expect(seen.every((p, i) => i === 0 || p > seen[i - 1]!)).toBe(true);
    expect(seen.every((p) => p >= 1 && p <= 99)).toBe(true);

    // A PDF holds the first 5,000 rows and says so after the last one.
    const pdf = readPdf(
      t,
      (await savedReport(t, cookie, { name: 'Big', format: 'pdf', source: { kind: 'StaticTable', id: big.id } })).bytes,
    );
    expect(pdf.pages).toBeGreaterThan(100);
    expect(pdf.text).toMatch(/\n\s*4,999\s+row 4999\s*\n/);
    expect(pdf.text).not.toMatch(/\s5,000\s+row 5000/);
    expect(pdf.text.replace(/\s+/g, ' ')).toContain(
      'Only the first 5,000 of 5,100 rows are in this PDF. Save the report as CSV, XLSX or Parquet for every row.',
    );

    // A crash while generating: the row stays Pending with no contents; the next start marks it Failed.
    const { id } = await t.services.files.createReport({
      accountId: team.accountId,
      userId: team.owner.userId,
      name: 'Cut short.pdf',
      contentType: 'application/pdf',
      originEntityType: 'StaticTable',
      originEntityTypeId: orders.id,
    });
    await t.server.close();
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: t.dataDir });
    const restarted = await buildApp(config, { logger: false, clock: t.clock.now });
    try {
      const after = ok(await call<ReportProgress>(restarted.server, 'GET', `/api/reports/${id}/progress`, { cookie }));
      expect(after).toMatchObject({ status: 'Failed', error: expect.stringContaining('restarted') });
    } finally {
      await restarted.server.close();
    }
  });
});

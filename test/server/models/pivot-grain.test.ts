/**
 * Pivots by time grain and charts through the server: a Date field grouped by month or quarter
 * (labels, time order, its header), one number of decimals per value field, a chart saved with the
 * pivot, and the model chart call (grouped and summed on the server, capped at 50 categories), for
 * read_only members too, who still cannot change a pivot.
 */
import { describe, expect, it } from 'vitest';
import { CHART_LIMITS } from '../../../src/shared/charts';
import type { Pivot, PivotPage } from '../../../src/shared/pivots';
import type { TestApp } from '../helpers';
import { appWithTeam, ok, query, tableFromCsv, trpcOk, type StaticTable } from '../static-tables/helpers';
import { addColumn, api, createModel, rawColumn, type Model } from './helpers';

const SALES_CSV = [
  'day,amount,units,region',
  '2024-01-15,10.5,1,North',
  '2024-01-31,4,2,South',
  '2024-02-01,20,3,North',
  '2024-03-31,1.25,4,South',
  '2024-04-01,7,5,North',
  ',3,6,North',
].join('\n');

async function salesModel(t: TestApp, cookie: string): Promise<{ model: Model; table: StaticTable }> {
  const table = await tableFromCsv(t, cookie, `${SALES_CSV}\n`, 'Sales lines');
  const model = await createModel(t, cookie, 'Sales');
  let current = model;
  for (const name of ['day', 'amount', 'units', 'region']) {
    current = await addColumn(t, cookie, model.id, rawColumn(table, name, name[0]!.toUpperCase() + name.slice(1)));
  }
  return { model: current, table };
}

const keyIn = (model: Model, name: string) => model.columns.find((c) => c.displayName === name)!.columnKey;

function byMonth(model: Model, overrides: Partial<Pivot> = {}) {
  return {
    key: 'month',
    name: 'By month',
    rows: [{ column: keyIn(model, 'Day'), grain: 'month' }],
    columns: [{ column: keyIn(model, 'Region') }],
    values: [
      { column: keyIn(model, 'Amount'), function: 'Sum' },
      { column: keyIn(model, 'Units'), function: 'Sum' },
      { column: keyIn(model, 'Amount'), function: 'Sum', showAs: 'PercentOfRow' },
    ],
    chart: { type: 'pie' },
    ...overrides,
  };
}

async function pivotPage(t: TestApp, cookie: string, model: Model, pivotKey: string) {
  return api<PivotPage>(
    t,
    cookie,
    'POST',
    `/api/tables/ModelVersion/${model.versionId}/resources/${pivotKey}/Pivot/data/infinite-scroll`,
    { page: 1 },
  );
}

describe('pivots by time grain, with charts', () => {
  it('groups a Date field by month in time order, names the grain and the show-as, one decimals rule per value', async () => {
    const { t, team } = await appWithTeam();
    const { cookie } = team.owner;
    const { model } = await salesModel(t, cookie);
    expect(model.columns.find((c) => c.displayName === 'Day')!.type).toBe('Date');
    const saved = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, { pivots: [byMonth(model)] }),
    );
    // The grain and the chart are saved with the pivot (defaults filled).
    expect(saved.pivots[0]!.rows[0]!.grain).toBe('month');
    expect(saved.pivots[0]!.chart).toEqual({ type: 'pie', shown: true });
    const again = ok(await api<Model>(t, cookie, 'GET', `/api/models/${model.id}?draft=true`));
    expect(again.pivots[0]!.chart).toEqual({ type: 'pie', shown: true });

    const page = ok(await pivotPage(t, cookie, saved, 'month'));
    const { layout, rows } = page;
    expect(layout.rowFields).toEqual([{ column: keyIn(model, 'Day'), label: 'Day (Month)', grain: 'month' }]);
    expect(layout.values.map((v) => [v.label, v.decimals])).toEqual([
      ['Sum of Amount', 2],
      ['Sum of Units', 0],
      ['% of Row · Amount', 2],
    ]);
    expect(layout.columnKeys).toEqual([['North'], ['South']]);
    const cells = rows.map((row) => layout.columns.map((column) => row.cells[column.key] ?? null));
    expect(cells).toEqual([
      ['2024-01', 10.5, 1, 10.5 / 14.5, 4, 2, 4 / 14.5, 14.5, 3, 1],
      ['2024-02', 20, 3, 1, null, null, null, 20, 3, 1],
      ['2024-03', null, null, null, 1.25, 4, 1, 1.25, 4, 1],
      ['2024-04', 7, 5, 1, null, null, null, 7, 5, 1],
      [null, 3, 6, 1, null, null, null, 3, 6, 1],
      [null, 40.5, 15, 40.5 / 45.75, 5.25, 6, 5.25 / 45.75, 45.75, 21, 1],
    ]);
    expect(rows.map((row) => row.isTotal)).toEqual([false, false, false, false, false, true]);

    // The export writes the same labels and headers.
    const csv = ok(await api<string>(t, cookie, 'GET', `/api/models/${model.id}/export/pivot?pivotKey=month`)).split(
      '\r\n',
    );
    expect(csv[0]).toBe(
      'Day (Month),North / Sum of Amount,North / Sum of Units,North / % of Row · Amount,' +
        'South / Sum of Amount,South / Sum of Units,South / % of Row · Amount,' +
        'Total / Sum of Amount,Total / Sum of Units,Total / % of Row · Amount',
    );
    expect(csv.slice(1, 6).map((line) => line.split(',')[0])).toEqual(['2024-01', '2024-02', '2024-03', '2024-04', '']);

    // Quarters, descending: still by time.
    const quarters = byMonth(model, {
      key: 'quarter',
      rows: [{ column: keyIn(model, 'Day'), grain: 'quarter', sort: { direction: 'Descending', valueIndex: null } }],
      columns: [],
    } as Partial<Pivot>);
    const withQuarters = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, { pivots: [byMonth(model), quarters] }),
    );
    const quarterRows = ok(await pivotPage(t, cookie, withQuarters, 'quarter')).rows;
    expect(quarterRows.map((row) => row.cells.r0)).toEqual(['2024-Q2', '2024-Q1', null, null]);
  });

  it('answers 400 naming the column for a grain on a column that is not a date', async () => {
    const { t, team } = await appWithTeam();
    const { cookie } = team.owner;
    const { model } = await salesModel(t, cookie);
    const bad = byMonth(model, {
      key: 'bad',
      rows: [{ column: keyIn(model, 'Region'), grain: 'month' }],
    } as Partial<Pivot>);
    const saved = ok(await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, { pivots: [bad] }));
    const res = await pivotPage(t, cookie, saved, 'bad');
    expect(res.status).toBe(400);
    expect((res.body as unknown as { message: string }).message).toBe(
      'Rows: "Region" is a Text column; only Date and DateTime fields group by month',
    );
    const unknown = await api(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, {
      pivots: [byMonth(model, { rows: [{ column: keyIn(model, 'Day'), grain: 'hour' }] } as unknown as Partial<Pivot>)],
    });
    expect(unknown.status).toBe(400);
  });

  it('sums a model sheet up by a category for a chart, dates by grain, others largest first, capped', async () => {
    const { t, team } = await appWithTeam();
    const { cookie } = team.owner;
    const { model } = await salesModel(t, cookie);
    const chart = (input: unknown, who = cookie) =>
      query<PivotPage>(t, 'models.chartData', { versionId: model.versionId, ...(input as object) }, who);

    const months = trpcOk(
      await chart({
        category: { column: keyIn(model, 'Day'), grain: 'quarter' },
        series: [{ column: keyIn(model, 'Amount') }, { column: keyIn(model, 'Region'), function: 'Count' }],
      }),
    );
    expect(months.layout.values.map((v) => v.label)).toEqual(['Sum of Amount', 'Count of Region']);
    expect(months.rows.map((row) => [row.cells.r0, row.cells.v0, row.cells.v1])).toEqual([
      ['2024-Q1', 35.75, 4],
      ['2024-Q2', 7, 1],
      [null, 3, 1],
    ]);
    expect(months.hasMore).toBe(false);

    const regions = trpcOk(
      await chart(
        { category: { column: keyIn(model, 'Region') }, series: [{ column: keyIn(model, 'Units') }] },
        team.readOnly.cookie,
      ),
    );
    // A read_only member reads charts; the largest sum comes first.
    expect(regions.rows.map((row) => [row.cells.r0, row.cells.v0])).toEqual([
      ['North', 15],
      ['South', 6],
    ]);

    const refused = await chart({
      category: { column: keyIn(model, 'Region') },
      series: [{ column: keyIn(model, 'Region') }],
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Sum does not apply to \\"Region\\"');
    const none = await chart({ category: { column: keyIn(model, 'Region') }, series: [] });
    expect(none.status).toBe(400);
  });

  it(`keeps a chart's first ${CHART_LIMITS.maxCategories} categories and says more exist`, async () => {
    const { t, team } = await appWithTeam();
    const { cookie } = team.owner;
    const lines = ['name,amount'];
    for (let i = 1; i <= CHART_LIMITS.maxCategories + 5; i++) lines.push(`n${String(i).padStart(2, '0')},${i}`);
    const table = await tableFromCsv(t, cookie, `${lines.join('\n')}\n`, 'Many');
    const model = await createModel(t, cookie, 'Many');
    await addColumn(t, cookie, model.id, rawColumn(table, 'name', 'Name'));
    const full = await addColumn(t, cookie, model.id, rawColumn(table, 'amount', 'Amount'));
    const answer = trpcOk(
      await query<PivotPage>(
        t,
        'models.chartData',
        {
          versionId: full.versionId,
          category: { column: keyIn(full, 'Name') },
          series: [{ column: keyIn(full, 'Amount') }],
        },
        cookie,
      ),
    );
    expect(answer.rows).toHaveLength(CHART_LIMITS.maxCategories);
    expect(answer.hasMore).toBe(true);
    expect(answer.rows[0]!.cells.r0).toBe('n55');
  });

  it('lets no read_only member save a chart setting', async () => {
    const { t, team } = await appWithTeam();
    const { model } = await salesModel(t, team.owner.cookie);
    const res = await api(t, team.readOnly.cookie, 'PUT', `/api/models/${model.id}/pivots`, {
      pivots: [byMonth(model)],
    });
    expect(res.status).toBe(403);
  });
});

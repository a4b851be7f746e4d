/**
 * Pivot exports are what the pivot grid shows: the CSV and the XLSX hold the rows of the pivot data
 * call (read chunk by chunk, as the grid reads them), in its order, each value in full precision:
 * CSV as the data call answers it (a percentage as its fraction), XLSX as numeric cells with a
 * percent format where shown as a percentage, dates as dates, exact big numbers as text. Headers are
 * unique and say how a value is shown ("% of Row · amount").
 */
import { describe, expect, it } from 'vitest';
import type { Pivot, PivotLayout, PivotRow } from '../../../src/shared/pivots';
import type { ColumnType } from '../../../src/shared/tables';
import type { TestApp } from '../helpers';
import { appWithTeam, ok, tableFromCsv, type StaticTable } from '../static-tables/helpers';
import { AWKWARD_CSV, parseCsv, readXlsx } from '../tables/export-compare';
import { addColumn, api, createModel, rawColumn, type Model } from './helpers';

interface PivotData {
  layout: PivotLayout;
  rows: PivotRow[];
}

async function modelOver(t: TestApp, cookie: string, table: StaticTable): Promise<Model> {
  const model = await createModel(t, cookie, 'Awkward pivots');
  let current = model;
  for (const name of ['id', 'label', 'amount', 'big', 'day', 'at', 'flag']) {
    current = await addColumn(t, cookie, model.id, rawColumn(table, name));
  }
  return current;
}

/** Every row of the pivot data call, chunk by chunk as the grid loads them. */
async function pivotData(t: TestApp, cookie: string, versionId: string, pivotKey: string): Promise<PivotData> {
  const rows: PivotRow[] = [];
  for (let page = 1; ; page += 1) {
    const chunk = ok(
      await api<PivotData & { hasMore: boolean }>(
        t,
        cookie,
        'POST',
        `/api/tables/ModelVersion/${versionId}/resources/${pivotKey}/Pivot/data/infinite-scroll`,
        { page, pageSize: 2 },
      ),
    );
    rows.push(...chunk.rows);
    if (!chunk.hasMore) return { layout: chunk.layout, rows };
  }
}

/** The row as the grid shows it: cells in layout order, 'Total' in a total row's first unused row-field cell. */
function gridCells(layout: PivotLayout, row: PivotRow): unknown[] {
  const cells = layout.columns.map((column) => row.cells[column.key] ?? null);
  if (row.isTotal) {
    const at = layout.columns.findIndex((c, i) => c.kind === 'row-field' && i >= row.level);
    if (at >= 0 && cells[at] === null) cells[at] = 'Total';
  }
  return cells;
}

function exportOf(t: TestApp, cookie: string, model: Model, pivotKey: string, format: 'csv' | 'xlsx') {
  return api<string>(
    t,
    cookie,
    'GET',
    `/api/models/${model.id}/export/pivot?pivotKey=${pivotKey}&format=${format}&versionId=${model.versionId}`,
  );
}

/**
 * The awkward rows, with amounts whose every partial sum is an exact double (integers and binary
 * fractions spanning fewer than 53 bits, 2^30 down to 2^-20). DuckDB adds doubles in the order its
 * threads deliver them, so sums that round could differ in the last bit between any two calls, the
 * grid's own included; these cannot, so each cell compares exactly.
 */
const PIVOT_AMOUNTS = ['3804', '25.5', '', '0.25', '-7', '3804', '1073741824', '0.00000095367431640625'];
const PIVOT_CSV = (() => {
  const [header, ...lines] = AWKWARD_CSV.split(/\n(?=\d+,)/);
  return [
    header,
    ...lines.map((line, i) => {
      const fields = line.match(/^(\d+,(?:"(?:[^"]|"")*"|[^,]*),)[^,]*(,.*)$/s)!;
      return `${fields[1]}${PIVOT_AMOUNTS[i]}${fields[2]}`;
    }),
  ].join('\n');
})();

async function pivotModel() {
  const { t, team } = await appWithTeam();
  const cookie = team.owner.cookie;
  const [original, replaced] = [parseCsv(AWKWARD_CSV), parseCsv(PIVOT_CSV)];
  expect(replaced.map((r) => r.filter((_, i) => i !== 2))).toEqual(original.map((r) => r.filter((_, i) => i !== 2)));
  expect(replaced.map((r) => r[2]!.text)).toEqual(['amount', ...PIVOT_AMOUNTS]);
  const table = await tableFromCsv(t, cookie, PIVOT_CSV, 'Awkward values');
  const model = await modelOver(t, cookie, table);
  const key = (name: string) => model.columns.find((c) => c.displayName === name)!.columnKey;
  const pivots: Pivot[] = [
    {
      key: 'bylabel',
      name: 'By label',
      filters: [],
      rows: [{ column: key('label'), sort: { direction: 'Ascending', valueIndex: null }, grain: null }],
      columns: [{ column: key('flag'), sort: { direction: 'Descending', valueIndex: null }, grain: null }],
      values: [
        { column: key('amount'), function: 'Sum', showAs: 'Default', displayName: null },
        { column: key('amount'), function: 'Sum', showAs: 'PercentOfRow', displayName: null },
        { column: key('amount'), function: 'Sum', showAs: 'PercentOfGrandTotal', displayName: null },
        { column: key('big'), function: 'Sum', showAs: 'Default', displayName: null },
        { column: key('id'), function: 'Count', showAs: 'Default', displayName: null },
        { column: key('day'), function: 'Min', showAs: 'Default', displayName: null },
        { column: key('at'), function: 'Max', showAs: 'Default', displayName: null },
        { column: key('amount'), function: 'Avg', showAs: 'Default', displayName: 'Same' },
        { column: key('id'), function: 'Max', showAs: 'Default', displayName: 'Same' },
      ],
      showRowTotals: true,
      showColumnTotals: true,
      chart: null,
    },
    {
      key: 'byday',
      name: 'By day',
      filters: [],
      rows: [
        { column: key('day'), sort: { direction: 'Descending', valueIndex: null }, grain: null },
        { column: key('id'), sort: { direction: 'Ascending', valueIndex: null }, grain: null },
      ],
      columns: [],
      values: [
        { column: key('big'), function: 'Sum', showAs: 'Default', displayName: null },
        { column: key('amount'), function: 'Sum', showAs: 'PercentOfColumn', displayName: null },
      ],
      showRowTotals: true,
      showColumnTotals: true,
      chart: null,
    },
  ];
  const saved = ok(await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, { pivots }));
  const types = new Map(saved.columns.map((c) => [c.columnKey, c.type]));
  return { t, cookie, model: saved, types };
}

/** What a layout column holds: a row field its column's type, a value a number except Min and Max. */
function cellType(layout: PivotLayout, index: number, types: Map<string, ColumnType>): ColumnType {
  const column = layout.columns[index]!;
  if (column.kind === 'row-field') return types.get(layout.rowFields[index]!.column)!;
  const value = layout.values[column.valueIndex!]!;
  return value.function === 'Min' || value.function === 'Max' ? types.get(value.column)! : 'Number';
}

describe('pivot exports equal the pivot grid', () => {
  it('CSV: unique readable headers, the grid rows in order, every value as the data call answers it', async () => {
    const { t, cookie, model } = await pivotModel();
    for (const pivotKey of ['bylabel', 'byday']) {
      const { layout, rows } = await pivotData(t, cookie, model.versionId, pivotKey);
      const res = await exportOf(t, cookie, model, pivotKey, 'csv');
      expect(res.status, res.body).toBe(200);
      const [header, ...records] = parseCsv(res.body);
      const headers = header!.map((cell) => cell.text);
      expect(new Set(headers).size, headers.join(' | ')).toBe(headers.length);
      expect(headers).toEqual(
        layout.columns
          .map((c) => c.path.map((p) => p ?? '(empty)').join(' / '))
          .map((h, i, all) => {
            const before = all.slice(0, i).filter((x) => x === h).length;
            return before === 0 ? h : `${h} (${before + 1})`;
          }),
      );
      expect(records).toHaveLength(rows.length);
      records.forEach((record, r) => {
        gridCells(layout, rows[r]!).forEach((value, i) => {
          const where = `${pivotKey} row ${r + 1}, ${headers[i]}`;
          if (value === null) expect(record[i], where).toEqual({ text: '', quoted: false });
          else expect(record[i]!.text, where).toBe(String(value));
        });
      });
      // Percentages are fractions in full, never rounded text.
      expect(res.body).not.toMatch(/%(,|\r\n)/);
    }

    const { layout } = await pivotData(t, cookie, model.versionId, 'bylabel');
    expect(layout.values.map((v) => v.label)).toEqual([
      'Sum of amount',
      '% of Row · amount',
      '% of Grand Total · amount',
      'Sum of big',
      'Count of id',
      'Min of day',
      'Max of at',
      'Same',
      'Same',
    ]);
    const csv = (await exportOf(t, cookie, model, 'bylabel', 'csv')).body;
    const headers = parseCsv(csv)[0]!.map((cell) => cell.text);
    expect(headers).toContain('true / % of Row · amount');
    expect(headers).toContain('Total / Same (2)');
  });

  it('CSV keeps tiny percentages and big sums exact', async () => {
    const { t, cookie, model } = await pivotModel();
    const { layout, rows } = await pivotData(t, cookie, model.versionId, 'byday');
    const records = parseCsv((await exportOf(t, cookie, model, 'byday', 'csv')).body).slice(1);
    const percent = layout.columns.findIndex((c) => c.percent);
    const sum = layout.columns.findIndex((c) => c.kind === 'value' && !c.percent);
    // Row of 2024-12-31: amount 2^-20 of a column total above 2^30.
    const tiny = records.find((record) => record[0]!.text === '2024-12-31' && record[1]!.text === '8')!;
    expect(Number(tiny[percent]!.text)).toBeGreaterThan(0);
    expect(tiny[percent]!.text).toBe(String(rows[records.indexOf(tiny)]!.cells[layout.columns[percent]!.key]));
    const total = records.at(-1)!;
    expect(total[0]!.text).toBe('Total');
    // 1234567890123456789 - 1234567890123456789 + 9007199254740993 + 12 + 9007199254740992 - 9007199254740993 + 0
    expect(total[sum]!.text).toBe('9007199254741004');
  });

  it('averages a DECIMAL column from its exact sum, in the grid and the CSV: 0.1, 0.2 and 0.3 average 0.2', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    // The long value makes the column DECIMAL(38,6): a double would change it.
    const table = await tableFromCsv(t, cookie, 'g,dec\na,0.1\na,0.2\na,0.3\nb,99999999999999.999999\n', 'Cents');
    const created = await createModel(t, cookie, 'Cents');
    await addColumn(t, cookie, created.id, rawColumn(table, 'g'));
    const model = await addColumn(t, cookie, created.id, rawColumn(table, 'dec'));
    const [g, dec] = ['g', 'dec'].map((name) => model.columns.find((c) => c.displayName === name)!.columnKey);
    const pivot = { key: 'avg', name: 'Avg', filters: [], rows: [{ column: g! }], columns: [], chart: null };
    const saved = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, {
        pivots: [
          { ...pivot, values: [{ column: dec!, function: 'Avg' }], showRowTotals: false, showColumnTotals: false },
        ],
      }),
    );
    const { layout, rows } = await pivotData(t, cookie, saved.versionId, 'avg');
    const value = layout.columns.find((c) => c.kind === 'value')!.key;
    expect(rows.map((row) => row.cells[value])).toEqual([0.2, 100000000000000]);
    const records = parseCsv((await exportOf(t, cookie, saved, 'avg', 'csv')).body).slice(1);
    expect(records.map((record) => record.map((cell) => cell.text))).toEqual([
      ['a', '0.2'],
      ['b', '100000000000000'],
    ]);
  });

  it('XLSX: numeric cells with a percent format for percentages, dates as dates, exact big numbers as text', async () => {
    const { t, cookie, model, types } = await pivotModel();
    for (const pivotKey of ['bylabel', 'byday']) {
      const { layout, rows } = await pivotData(t, cookie, model.versionId, pivotKey);
      const res = await exportOf(t, cookie, model, pivotKey, 'xlsx');
      expect(res.status).toBe(200);
      const [header, ...sheetRows] = await readXlsx(res.raw.rawPayload);
      const csvHeaders = parseCsv((await exportOf(t, cookie, model, pivotKey, 'csv')).body)[0]!.map((c) => c.text);
      expect(header!.map((cell) => cell.value)).toEqual(csvHeaders);
      expect(sheetRows).toHaveLength(rows.length);
      sheetRows.forEach((cells, r) => {
        gridCells(layout, rows[r]!).forEach((value, i) => {
          const where = `${pivotKey} row ${r + 1}, ${csvHeaders[i]}`;
          const cell = cells[i]!;
          const type = cellType(layout, i, types);
          if (value === null) {
            expect(cell.value, where).toBeNull();
          } else if (typeof value === 'number') {
            expect(cell.value, where).toBe(value);
            // Value fields show their decimals (a count none, a sum of doubles 2); row fields as they are.
            const column = layout.columns[i]!;
            const decimals = column.valueIndex === null ? null : layout.values[column.valueIndex]!.decimals;
            const format =
              decimals === null
                ? ''
                : column.percent
                  ? '0.00%'
                  : decimals > 0
                    ? `#,##0.${'0'.repeat(decimals)}`
                    : '#,##0';
            expect(cell.numFmt, where).toBe(format);
          } else if (
            typeof value === 'string' &&
            (type === 'Date' || type === 'DateTime') &&
            value !== 'Total' &&
            // Microseconds are more than an Excel date holds: such a value stays its exact text.
            !/\.\d{4,}Z$/.test(value)
          ) {
            expect(cell.value, where).toBeInstanceOf(Date);
            const iso = (cell.value as Date).toISOString();
            expect(type === 'Date' ? iso.slice(0, 10) : iso, where).toBe(value);
          } else {
            // Text, booleans, and numbers too exact for a double (the data call's text) are written as they are.
            expect(cell.value, where).toBe(value);
          }
        });
      });
    }
  });

  it('XLSX writes a date of the years 0-99, which Excel cannot hold, as the text the grid shows', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const csv = 'id,day,at\n1,0044-03-15,0050-01-01 10:00:00\n2,2024-01-31,2024-01-31 10:00:00\n';
    const table = await tableFromCsv(t, cookie, csv, 'Old days');
    expect(table.columns.map((c) => c.type)).toEqual(['Number', 'Date', 'DateTime']);
    const model = await createModel(t, cookie, 'Old days');
    let current = model;
    for (const name of ['id', 'day', 'at']) current = await addColumn(t, cookie, model.id, rawColumn(table, name));
    const key = (name: string) => current.columns.find((c) => c.displayName === name)!.columnKey;
    const pivot: Pivot = {
      key: 'byday',
      name: 'By day',
      filters: [],
      rows: [
        { column: key('day'), sort: { direction: 'Ascending', valueIndex: null }, grain: null },
        { column: key('at'), sort: { direction: 'Ascending', valueIndex: null }, grain: null },
      ],
      columns: [],
      values: [{ column: key('id'), function: 'Count', showAs: 'Default', displayName: null }],
      showRowTotals: false,
      showColumnTotals: false,
      chart: null,
    };
    const saved = ok(await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, { pivots: [pivot] }));
    const { layout, rows } = await pivotData(t, cookie, saved.versionId, 'byday');
    const [, ...sheetRows] = await readXlsx((await exportOf(t, cookie, saved, 'byday', 'xlsx')).raw.rawPayload);
    // Date.UTC reads the year 44 as 1944: the cells were dates 1900 years off.
    expect(gridCells(layout, rows[0]!).slice(0, 2)).toEqual(['0044-03-15', '0050-01-01T10:00:00.000Z']);
    expect(sheetRows[0]!.slice(0, 2).map((cell) => cell.value)).toEqual(['0044-03-15', '0050-01-01T10:00:00.000Z']);
    const [day, at] = sheetRows[1]!.map((cell) => cell.value);
    expect([(day as Date).toISOString(), (at as Date).toISOString()]).toEqual([
      '2024-01-31T00:00:00.000Z',
      '2024-01-31T10:00:00.000Z',
    ]);
  });

  it('XLSX writes a sum past 2^53 as its exact text, which Excel cannot hold as a number', async () => {
    const { t, cookie, model } = await pivotModel();
    const [, ...sheetRows] = await readXlsx((await exportOf(t, cookie, model, 'byday', 'xlsx')).raw.rawPayload);
    expect(
      sheetRows
        .at(-1)!
        .map((cell) => cell.value)
        .slice(0, 3),
    ).toEqual(['Total', null, '9007199254741004']);
  });
});

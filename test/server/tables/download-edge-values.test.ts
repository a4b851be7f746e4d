/**
 * Exports are what the user sees, for the values at the edges of their types: dates and date-times
 * outside the years 0001-9999 (DuckDB's CSV writer adds an era, `0044-03-15 (BC)`, or drops the
 * expanded year's sign), decimals that are all fraction (DECIMAL(4,4): DuckDB writes `.5000`),
 * decimals the grid has as numbers (`1e-9`) or as their exact text (`12345678.1234567890`, every
 * digit of the scale), and lists of FLOAT and DOUBLE. A static table holds
 * them in their own warehouse types, and its CSV download and a model's export over it hold the text
 * the grid's data call answers, exactly.
 */
import { describe, expect, it } from 'vitest';
import type { Column } from '../../../src/shared/tables';
import { call, type TestApp } from '../helpers';
import { addColumn, createModel, rawColumn, type Model } from '../models/helpers';
import { appWithTeam, type Row, type StaticTable } from '../static-tables/helpers';
import { edgeTable, type EdgeColumn } from './edge-values';
import { expectCsvMatchesGrid, gridRows, parseCsv } from './export-compare';

/** The CSV's cells of each column by display name, top to bottom (null for an unquoted empty field). */
function csvColumns(csv: string): Map<string, (string | null)[]> {
  const [header, ...records] = parseCsv(csv);
  return new Map(
    header!.map((cell, i) => [cell.text, records.map((r) => (r[i]!.text === '' && !r[i]!.quoted ? null : r[i]!.text))]),
  );
}

/** The grid's value of each column by display name, as the text a CSV cell holds (lists as their JSON). */
function gridColumns(columns: Column[], rows: Row[]): Map<string, (string | null)[]> {
  return new Map(
    columns.map((c) => [
      c.displayName,
      rows.map((row) => {
        const value = row[c.columnKey];
        if (value === null || value === undefined) return null;
        return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
      }),
    ]),
  );
}

/**
 * A date-time, which the file writes in DuckDB's own layout (`2024-01-31 10:00:00.5`, the same
 * instant as the grid's `2024-01-31T10:00:00.500Z`; outside 0001-9999 in the grid's ISO years,
 * `-000043-03-15 10:00:00.5`); expectCsvMatchesGrid compares those, years spelt alike.
 */
const DUCKDB_LAYOUT = /^[+-]?\d{4,6}-\d\d-\d\dT/;

/**
 * The file's text of the named columns is the grid's text, cell for cell (a date-time of the years
 * 0001-9999 the same instant); every column means the same.
 */
async function expectSameText(
  t: TestApp,
  cookie: string,
  target: { type: string; id: string; columns: Column[] },
  csvPath: string,
  exact: string[],
): Promise<Map<string, (string | null)[]>> {
  const rows = await gridRows(t, cookie, target.type, target.id);
  const res = await call<string>(t.server, 'GET', csvPath, { cookie });
  expect(res.status, res.body).toBe(200);
  expectCsvMatchesGrid(res.body, target.columns, rows);
  const file = csvColumns(res.body);
  const grid = gridColumns(target.columns, rows);
  for (const name of exact) {
    const expected = grid.get(name)!.map((text, r) => (text && DUCKDB_LAYOUT.test(text) ? file.get(name)![r] : text));
    expect(file.get(name), name).toEqual(expected);
  }
  return grid;
}

async function modelOver(t: TestApp, cookie: string, table: StaticTable): Promise<{ model: Model; columns: Column[] }> {
  const model = await createModel(t, cookie, 'Edges model');
  let current = model;
  for (const column of table.columns)
    current = await addColumn(t, cookie, model.id, rawColumn(table, column.displayName));
  const columns = [...current.columns]
    .sort((a, b) => a.order - b.order)
    .map((c, order) => ({
      columnKey: c.columnKey,
      displayName: c.displayName,
      description: c.description,
      order,
      type: c.type,
    }));
  return { model: current, columns };
}

/** Each table's CSV download and a model's CSV export over it hold the grid's text of the named columns. */
async function expectDownloadsSameText(columns: EdgeColumn[]): Promise<Map<string, (string | null)[]>> {
  const { t, team } = await appWithTeam();
  const cookie = team.owner.cookie;
  const table = await edgeTable(t, cookie, columns);
  const names = columns.map((c) => c.name);
  const grid = await expectSameText(
    t,
    cookie,
    { type: 'StaticTable', id: table.id, columns: table.columns },
    `/api/tables/StaticTable/${table.id}/download?format=csv`,
    names,
  );
  const { model, columns: modelColumns } = await modelOver(t, cookie, table);
  await expectSameText(
    t,
    cookie,
    { type: 'ModelVersion', id: model.versionId, columns: modelColumns },
    `/api/models/versions/${model.versionId}/export?format=csv`,
    names,
  );
  return grid;
}

describe('CSV downloads write edge values as the grid shows them', () => {
  it('dates and date-times outside the years 0001-9999 in ISO years, as the grid has them', async () => {
    const days = [
      '0000-06-15',
      '-0043-03-15',
      '10000-01-01',
      '0001-01-01',
      '9999-12-31',
      '2024-01-31',
      null,
      'infinity',
    ];
    const times = [
      '0000-06-15 10:00:00',
      '-0043-03-15 10:00:00.5',
      '10000-01-01 00:00:00.123456',
      '0001-01-01 00:00:00',
      '-0001-12-31 23:59:59.000001',
      '9999-12-31 23:59:59.999',
      null,
      '-infinity',
    ];
    const grid = await expectDownloadsSameText([
      { name: 'day', sqlType: 'DATE', type: 'Date', values: days },
      { name: 'at', sqlType: 'TIMESTAMP', type: 'DateTime', values: times },
      {
        name: 'at_s',
        sqlType: 'TIMESTAMP_S',
        type: 'DateTime',
        values: times.map((v) => v?.replace(/\..*/, '') ?? null),
      },
      {
        name: 'at_ms',
        sqlType: 'TIMESTAMP_MS',
        type: 'DateTime',
        values: times.map((v) => v?.replace(/(\.\d{1,3})\d*/, '$1') ?? null),
      },
      {
        name: 'at_tz',
        sqlType: 'TIMESTAMPTZ',
        type: 'DateTime',
        values: times.map((v) => (v && !v.endsWith('infinity') ? `${v}+00` : v)),
      },
    ]);
    // What the grid shows, and so the file holds: ISO's years (1 BC is 0000), expanded past four digits.
    expect(grid.get('day')!.slice(0, 3)).toEqual(['0000-06-15', '-000043-03-15', '+010000-01-01']);
    expect(grid.get('at')!.slice(0, 3)).toEqual([
      '0000-06-15T10:00:00.000Z',
      '-000043-03-15T10:00:00.500Z',
      '+010000-01-01T00:00:00.123456Z',
    ]);
    expect(grid.get('at_tz')![4]).toBe('-000001-12-31T23:59:59.000001Z');
  }, 60_000);

  it('decimals that are all fraction keep their zero before the point, and zero is 0', async () => {
    const values = ['0', '0.5', '-0.5', '0.00001', null];
    const grid = await expectDownloadsSameText(
      ['DECIMAL(4,4)', 'DECIMAL(5,5)', 'DECIMAL(18,18)', 'DECIMAL(38,38)'].map((sqlType, i) => ({
        name: `fraction_${i}`,
        sqlType,
        type: 'Number',
        values,
      })),
    );
    expect(grid.get('fraction_1')).toEqual(['0', '0.5', '-0.5', '0.00001', null]);
  }, 60_000);

  it('a decimal is written as the grid has it: a number a double holds as that number, else its exact text with its scale', async () => {
    const grid = await expectDownloadsSameText([
      {
        name: 'exact',
        sqlType: 'DECIMAL(38,10)',
        type: 'Number',
        values: [
          '12345678.1234567890',
          '12345678901234567890.5000000000',
          '3804.0000000000',
          '-0.0000100000',
          '-0.0000000010',
          '0',
          '100000000000000000000000000.0000000000',
        ],
      },
    ]);
    // The grid shows the exact text as it is (a source such as PostgreSQL's NUMERIC prints its scale).
    expect(grid.get('exact')).toEqual([
      '12345678.1234567890',
      '12345678901234567890.5000000000',
      '3804',
      '-0.00001',
      '-1e-9',
      '0',
      '1e+26',
    ]);
  }, 60_000);

  it('lists of FLOAT and DOUBLE hold each item as the grid’s number', async () => {
    const grid = await expectDownloadsSameText([
      {
        name: 'floats',
        sqlType: 'FLOAT[]',
        type: 'Array',
        values: ['[0.1, 3804, 1e20, NULL, nan, -inf, 192115.62]', '[]', null],
      },
      { name: 'doubles', sqlType: 'DOUBLE[]', type: 'Array', values: ['[0.1, 3804, 1e20, NULL, 1e-7]', '[]', null] },
      { name: 'nested', sqlType: 'FLOAT[][]', type: 'Array', values: ['[[0.1], NULL, [2.5, NULL]]', null, '[]'] },
      {
        name: 'days',
        sqlType: 'DATE[]',
        type: 'Array',
        values: ['[0000-06-15, -0043-03-15, 10000-01-01, 2024-01-31]', null, '[]'],
      },
    ]);
    expect(grid.get('floats')![0]).toBe('[0.1,3804,100000000000000000000,null,"NaN","-Infinity",192115.62]');
  }, 60_000);
});

/**
 * A saved report holds what the grid shows, for values at the edges of their types: the XLSX cell by
 * cell the tables API's value (integers past 2^53, HUGEINT and wide DECIMALs exact as text, doubles as
 * themselves, '' an empty text and not a blank, lists as the grid's JSON, dates outside Excel's years
 * as the grid's text), and the PDF each number with all its digits (1e-300 is not `0`), a list as its
 * JSON, and a text's line break as the space the grid shows.
 */
import type ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { PivotPage } from '../../../src/shared/pivots';
import { call, type TestApp } from '../helpers';
import { addColumn, createModel, rawColumn, type Model } from '../models/helpers';
import { appWithTeam, ok } from '../static-tables/helpers';
import { canonicalNumber, gridRows, meaning, parseCsv, readParquet, readXlsx } from '../tables/export-compare';
import { EDGE_COLUMNS, edgeTable } from '../tables/edge-values';
import { readPdf, savedReport } from './helpers';

/** An XLSX cell's value as what it holds: an inline string's text as text. */
function xlsxValue(value: ExcelJS.CellValue): unknown {
  if (value && typeof value === 'object' && 'richText' in value) return value.richText.map((r) => r.text).join('');
  return value;
}

describe('Reports write edge values as the grid shows them', () => {
  it('an XLSX report holds each cell as the tables API answers it', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await edgeTable(t, cookie, EDGE_COLUMNS);
    const rows = await gridRows(t, cookie, 'StaticTable', table.id);
    const source = { kind: 'StaticTable', id: table.id, filterGroups: [], sorting: [] };
    const xlsx = await savedReport(t, cookie, { name: 'Edges', format: 'xlsx', source });
    const [header, ...sheet] = await readXlsx(xlsx.bytes);
    expect(header!.map((c) => c.value)).toEqual(table.columns.map((c) => c.displayName));
    expect(sheet.length).toBe(rows.length);
    sheet.forEach((cells, r) => {
      table.columns.forEach((column, i) => {
        const value = xlsxValue(cells[i]!.value);
        const expected = rows[r]![column.columnKey];
        const where = `row ${r + 1}, ${column.displayName}`;
        if (expected === '') expect(value, where).toBe('');
        else if (typeof expected === 'number') expect(value, where).toBe(expected === 0 ? 0 : expected);
        else expect(meaning(value, column.type), where).toBe(meaning(expected, column.type));
      });
    });
  });

  it('a PDF report writes every digit of a number, lists as their JSON, and a line break as a space', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await edgeTable(t, cookie, [
      {
        name: 'dbl',
        sqlType: 'DOUBLE',
        type: 'Number',
        values: ['1e-300', '0.30000000000000004', '-0.0', '1234567.125', '1e-11'],
      },
      { name: 'lst', sqlType: 'VARCHAR[]', type: 'Array', values: ["['a, b', 'c']", '[]', null, "['x']", "['y']"] },
      { name: 'txt', sqlType: 'VARCHAR', type: 'Text', values: ['one\ntwo', 'crlf\r\nline', 'tab\there', 'z', 'w'] },
    ]);
    const rows = await gridRows(t, cookie, 'StaticTable', table.id);
    const texts = rows.map((row) => row[table.columns[2]!.columnKey] as string);
    expect(texts.slice(0, 3).every((text) => /[\r\n\t]/.test(text))).toBe(true);
    const source = { kind: 'StaticTable', id: table.id, filterGroups: [], sorting: [] };
    const pdf = await savedReport(t, cookie, { name: 'Edges', format: 'pdf', source });
    // Each row on one line (pdftotext's columns are told apart by spacing, so words are compared).
    const lines = readPdf(t, pdf.bytes)
      .text.split('\n')
      .map((line) => line.trim().replace(/\s+/g, ' '))
      .filter((line) => /^[-\d]/.test(line));
    const words = (text: string) => text.replace(/\s+/g, ' ');
    expect(lines).toEqual([
      `1e-300 ["a, b","c"] ${words(texts[0]!)}`,
      `0.30000000000000004 [] ${words(texts[1]!)}`,
      `0 ${words(texts[2]!)}`,
      '1,234,567.125 ["x"] z',
      '0.00000000001 ["y"] w',
    ]);
  });
});

/** A model over the edge table with a pivot by `txt` ('' and null among its keys, a line break in one). */
async function edgePivot(t: TestApp, cookie: string) {
  const table = await edgeTable(t, cookie, EDGE_COLUMNS);
  const model = await createModel(t, cookie, 'Edges model');
  let current: Model = model;
  for (const c of table.columns) current = await addColumn(t, cookie, model.id, rawColumn(table, c.displayName));
  const key = (name: string) => current.columns.find((c) => c.displayName === name)!.columnKey;
  const value = (column: string, fn: 'Sum' | 'Max', showAs = 'Default') => ({
    column: key(column),
    function: fn,
    showAs,
    displayName: null,
  });
  const pivot = {
    key: 'bytext',
    name: 'By text',
    filters: [],
    rows: [{ column: key('txt'), sort: { direction: 'Ascending', valueIndex: null }, grain: null }],
    columns: [],
    values: [
      value('big', 'Sum'),
      value('huge', 'Max'),
      value('dec', 'Sum'),
      value('dbl', 'Sum'),
      value('dec', 'Sum', 'PercentOfGrandTotal'),
      value('day', 'Max'),
    ],
    showRowTotals: false,
    showColumnTotals: true,
    chart: { type: 'bar' },
  };
  current = ok(
    await call<Model>(t.server, 'PUT', `/api/models/${model.id}/pivots`, { cookie, body: { pivots: [pivot] } }),
  );
  const page = ok(
    await call<PivotPage>(
      t.server,
      'POST',
      `/api/tables/ModelVersion/${current.versionId}/resources/bytext/Pivot/data/infinite-scroll`,
      { cookie, body: { page: 1, pageSize: 100 } },
    ),
  );
  const source = { kind: 'Pivot', modelId: model.id, versionId: current.versionId, pivotKey: 'bytext' };
  return { page, source };
}

describe('Pivot reports of edge values', () => {
  it('a PDF draws the chart of 1e300 and a row key with a line break (generation hung on them)', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const { page, source } = await edgePivot(t, cookie);
    expect(page.rows.map((row) => row.cells['r0'])).toEqual(expect.arrayContaining(['', null, '+1\n"q"']));
    const pdf = await savedReport(t, cookie, { name: 'By text', format: 'pdf', source });
    const { text } = readPdf(t, pdf.bytes);
    // The axis in powers of ten, the category and the table's row key on one line each.
    expect(text).toContain('1E300');
    expect(text.match(/\+1 "q"/g)?.length).toBe(2);
    expect(text).toContain('9007199254744797');
  });

  it("a CSV writes a '' key as a quoted empty field and a null key as an unquoted one", async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const { page, source } = await edgePivot(t, cookie);
    const csv = await savedReport(t, cookie, { name: 'By text', format: 'csv', source });
    const [, ...records] = parseCsv(csv.text);
    expect(records.map((r) => r[0])).toEqual(
      page.rows.map((row) => {
        const key = row.isTotal ? 'Total' : row.cells['r0'];
        return key === null
          ? { text: '', quoted: false }
          : { text: key, quoted: key === '' || /[\n"]/.test(String(key)) };
      }),
    );
  });

  it('a Parquet file keeps exact sums as DECIMAL, not as text, and every value the grid has', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const { page, source } = await edgePivot(t, cookie);
    const parquet = await readParquet(
      t,
      (await savedReport(t, cookie, { name: 'By text', format: 'parquet', source })).bytes,
    );
    expect(parquet.types).toEqual({
      txt: 'VARCHAR',
      'Sum of big': 'DECIMAL(38,0)',
      // 39 digits: no DECIMAL holds it, so the exact text.
      'Max of huge': 'VARCHAR',
      'Sum of dec': 'DECIMAL(38,10)',
      'Sum of dbl': 'DOUBLE',
      '% of Grand Total · dec': 'DOUBLE',
      'Max of day': 'VARCHAR',
    });
    const number = (value: unknown) => (value === null ? null : canonicalNumber(String(value)));
    const columns = page.layout.columns;
    expect(parquet.rows.map((row) => columns.slice(1, 5).map((c) => number(row[c.path.join(' / ')])))).toEqual(
      page.rows.map((row) => columns.slice(1, 5).map((c) => number(row.cells[c.key] ?? null))),
    );
  });
});

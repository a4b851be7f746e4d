/**
 * A saved report holds what the grid shows, for values at the edges of their types: the XLSX cell by
 * cell the tables API's value (integers past 2^53, HUGEINT and wide DECIMALs exact as text, doubles as
 * themselves, '' an empty text and not a blank, lists as the grid's JSON, dates outside Excel's years
 * as the grid's text), and the PDF each number with all its digits (1e-300 is not `0`), a list as its
 * JSON, and a text's line break as the space the grid shows.
 */
import type ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ColumnType } from '../../../src/shared/tables';
import type { TestApp } from '../helpers';
import { appWithTeam, createTable, getTable, type StaticTable } from '../static-tables/helpers';
import { gridRows, meaning, readXlsx } from '../tables/export-compare';
import { readPdf, savedReport } from './helpers';

export interface EdgeColumn {
  name: string;
  sqlType: string;
  type: ColumnType;
  /** Each row's value as DuckDB reads it from text (null: NULL). */
  values: (string | null)[];
}

/** A static table with one column per entry, each in its own warehouse type, rows in the given order. */
export async function edgeTable(t: TestApp, cookie: string, columns: EdgeColumn[]): Promise<StaticTable> {
  const rows = Math.max(...columns.map((c) => c.values.length));
  const created = await createTable(t, cookie, {
    name: 'Edges',
    columns: columns.map((c) => ({ displayName: c.name })),
    rows: Array.from({ length: rows }, (_, r) => columns.map((c) => c.values[r] ?? null)),
  });
  const { account_id: accountId } = await t.deps.db
    .selectFrom('static_tables')
    .select('account_id')
    .where('id', '=', created.id)
    .executeTakeFirstOrThrow();
  const warehouse = t.deps.warehouse.forAccount(accountId);
  const name = `t_${created.id.replace(/-/g, '')}`;
  const key = (displayName: string) => created.columns.find((c) => c.displayName === displayName)!.columnKey;
  await warehouse.exclusive(`table:static.${name}`, () =>
    warehouse.run(
      columns
        .map(
          (c) =>
            `ALTER TABLE static.${name} ALTER "${key(c.name)}" TYPE ${c.sqlType} USING CAST("${key(c.name)}" AS ${c.sqlType});`,
        )
        .join('\n'),
    ),
  );
  for (const c of columns) {
    await t.deps.db
      .updateTable('static_table_columns')
      .set({ type: c.type })
      .where('table_id', '=', created.id)
      .where('column_key', '=', key(c.name))
      .execute();
  }
  return getTable(t, cookie, created.id);
}

export const EDGE_COLUMNS: EdgeColumn[] = [
  {
    name: 'big',
    sqlType: 'BIGINT',
    type: 'Number',
    values: ['9223372036854775807', '-9223372036854775807', '9007199254740993', '3804', null, '0'],
  },
  {
    name: 'huge',
    sqlType: 'HUGEINT',
    type: 'Number',
    values: ['170141183460469231731687303715884105727', '-1', '12', null, '0', '5'],
  },
  {
    name: 'dec',
    sqlType: 'DECIMAL(38,10)',
    type: 'Number',
    values: ['1234567890123456789.0123456789', '0.1000000000', '3804', null, '-0.0000000001', '12345678.1234567890'],
  },
  {
    name: 'dec33',
    sqlType: 'DECIMAL(3,3)',
    type: 'Number',
    values: ['0.000', '0.5', '-0.001', null, '0.999', '0.123'],
  },
  {
    name: 'dbl',
    sqlType: 'DOUBLE',
    type: 'Number',
    values: ['1e-300', '1e300', '-0.0', '0.30000000000000004', '123456789.12345679', '1e21'],
  },
  { name: 'flt', sqlType: 'FLOAT', type: 'Number', values: ['0.1', '1e-10', '3.4e38', null, '16777217', '0.3333333'] },
  { name: 'txt', sqlType: 'VARCHAR', type: 'Text', values: ['', null, '=1+1', '+1\n"q"', '@SUM(A1)', 'שלום 😀 -x'] },
  {
    name: 'day',
    sqlType: 'DATE',
    type: 'Date',
    values: ['-0043-03-15', '10000-01-01', '2024-01-31', null, '0001-01-01', '1899-12-31'],
  },
  {
    name: 'at',
    sqlType: 'TIMESTAMP',
    type: 'DateTime',
    values: [
      '-0043-03-15 10:00:00.5',
      '10000-01-01 00:00:00',
      '2024-01-31 10:00:00.123456',
      null,
      '1900-01-01 00:00:00',
      '2024-02-29 23:59:59.999',
    ],
  },
  {
    name: 'ns',
    sqlType: 'TIMESTAMP_NS',
    type: 'DateTime',
    values: [
      '2024-01-31 10:00:00.123456789',
      null,
      '2024-01-31 10:00:00',
      '2000-01-01 00:00:00.000000001',
      '1970-01-01',
      '2262-04-11',
    ],
  },
  {
    name: 'tz',
    sqlType: 'TIMESTAMPTZ',
    type: 'DateTime',
    values: [
      '2024-01-31 10:00:00.5+05:30',
      '-0043-03-15 10:00:00+00',
      null,
      '2024-01-31 00:00:00-08',
      '10000-01-01 00:00:00+00',
      '2024-01-01 00:00:00+00',
    ],
  },
  {
    name: 'iv',
    sqlType: 'INTERVAL',
    type: 'Text',
    values: ['1 year 2 months 3 days 04:05:06.789', '-1 day', null, '00:00:00', '1000 hours', '1 month'],
  },
  {
    name: 'lst',
    sqlType: 'VARCHAR[]',
    type: 'Array',
    values: ["['a, b', 'c', NULL]", '[]', null, "['']", "['1']", "['2']"],
  },
  {
    name: 'st',
    sqlType: 'STRUCT(a BIGINT, b VARCHAR)',
    type: 'Json',
    values: [
      "{'a': 9223372036854775807, 'b': 'x\"y'}",
      null,
      "{'a': 1, 'b': NULL}",
      "{'a': 2, 'b': ''}",
      "{'a': 3, 'b': 'z'}",
      "{'a': 4, 'b': 'w'}",
    ],
  },
  { name: 'ok', sqlType: 'BOOLEAN', type: 'Boolean', values: ['true', 'false', null, 'true', 'false', 'true'] },
];

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

/**
 * Reading exported files back and comparing them with the rows the grid's own data call answers:
 * CSV by a parser of its own (RFC 4180: quotes, doubled quotes, line breaks in fields), Parquet by
 * a DuckDB of the test's own, XLSX by exceljs. A value compares as what it means: a number by its
 * exact decimal digits, a date-time by its instant to the nanosecond, text and dates by their text.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { Column, ColumnType, Paged } from '../../../src/shared/tables';
import { openTestDuckDb } from '../../engine/duckdb';
import { call, type TestApp } from '../helpers';
import { ok, type Row } from '../static-tables/helpers';

/**
 * Rows with integers, integers past 2^53, doubles (integral, tiny, huge), dates, date-times,
 * booleans, nulls, and text with commas, quotes, a line break and a tab; some values repeat, so sorts
 * need their tie-breaks.
 */
export const AWKWARD_CSV = [
  'id,label,amount,big,day,at,flag',
  '1,"Smith, John",3804,1234567890123456789,2024-01-31,2024-01-31 10:00:00,true',
  '2,"He said ""hi""",25.5,-1234567890123456789,,2023-12-01 00:00:00.5,false',
  '3,"line one\nline two",,9007199254740993,1999-12-31,,',
  '4,plain,0.1,,2000-02-29,2024-02-29 23:59:59.123456,true',
  '5,"tab\there",-7,12,2024-01-01,2024-01-01 00:00:00,false',
  '6,"Smith, John",3804,9007199254740992,2024-01-31,2024-01-31 10:00:00,true',
  '7,big double,100000000000000000,-9007199254740993,1970-01-01,1970-01-01 00:00:00,',
  '8,tiny,0.0000001,0,2024-12-31,2024-12-31 23:59:59,false',
  '',
].join('\n');

export interface CsvCell {
  text: string;
  /** A quoted empty field is an empty text; an unquoted one is a null. */
  quoted: boolean;
}

/** RFC 4180 records; line ends LF or CRLF; the file ends with a line end. */
export function parseCsv(text: string): CsvCell[][] {
  const records: CsvCell[][] = [];
  let record: CsvCell[] = [];
  let i = 0;
  while (i < text.length) {
    let cell: CsvCell;
    if (text[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) throw new Error('A quoted field never closes');
        value += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        value += '"';
        i += 1;
      }
      cell = { text: value, quoted: true };
    } else {
      const end = text.slice(i).search(/[,\r\n]/);
      const stop = end < 0 ? text.length : i + end;
      cell = { text: text.slice(i, stop), quoted: false };
      i = stop;
    }
    record.push(cell);
    if (text[i] === ',') {
      i += 1;
      continue;
    }
    if (text[i] === '\r') i += 1;
    if (text[i] === '\n') i += 1;
    records.push(record);
    record = [];
  }
  return records;
}

/** A number's exact value as plain decimal text without redundant zeros: `1e-7` → `0.0000001`, `3804.00` → `3804`. */
export function canonicalNumber(text: string): string {
  const match = /^([+-]?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text.trim());
  if (!match) return `not a number: ${text}`;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`;
  const point = whole!.length + Number(exponent);
  let plain: string;
  if (point <= 0) plain = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + '0'.repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  let [int = '', frac = ''] = plain.split('.');
  int = int.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  const value = frac === '' ? int : `${int}.${frac}`;
  return /^0(\.0*)?$/.test(value) || sign !== '-' ? value : `-${value}`;
}

/** A date-time (`2024-01-31T10:00:00.5Z`, `2024-01-31 10:00:00.500000`, `... +00`) as UTC with nine fraction digits. */
export function canonicalTimestamp(text: string): string {
  const match = /^([+-]?\d{4,}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]00(?::?00)?)?$/.exec(text);
  if (!match) return `not a UTC date-time: ${text}`;
  return `${match[1]}T${match[2]}.${(match[3] ?? '').padEnd(9, '0')}`;
}

/** Any value the grid or a file holds, as the text it means for a column of `type`. */
export function meaning(value: unknown, type: ColumnType): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return canonicalNumber(value.toString());
  if (value instanceof Date)
    return type === 'Date' ? value.toISOString().slice(0, 10) : canonicalTimestamp(value.toISOString());
  if (type === 'Number' && (typeof value === 'number' || typeof value === 'string')) {
    return canonicalNumber(String(value));
  }
  if (type === 'DateTime' && typeof value === 'string') return canonicalTimestamp(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Every row the grid shows for these filters and sort, read page by page as the grid reads them. */
export async function gridRows(
  t: TestApp,
  cookie: string,
  type: string,
  id: string,
  request: { filterGroups?: unknown; sorting?: unknown } = {},
  pageSize = 3,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page += 1) {
    const res = await call<Paged<Row>>(t.server, 'POST', `/api/tables/${type}/${id}/data/infinite-scroll`, {
      cookie,
      body: { page, pageSize, ...request },
    });
    const answer = ok(res);
    rows.push(...answer.data);
    if (!answer.hasMore) return rows;
  }
}

/**
 * The CSV holds the grid's rows in the grid's order: a header of display names, then per cell the
 * text the grid's value reads as. A number the grid has as a number is written as `String(n)`
 * (integers stay integers), an exact number it has as text keeps every digit, a null is an empty
 * unquoted field and an empty text a quoted one.
 */
export function expectCsvMatchesGrid(csv: string, columns: Column[], rows: Row[]): void {
  const [header, ...records] = parseCsv(csv);
  expect(header?.map((cell) => cell.text)).toEqual(columns.map((c) => c.displayName));
  expect(records.length, 'rows in the file').toBe(rows.length);
  records.forEach((record, r) => {
    expect(record.length, `row ${r + 1} has one field per column`).toBe(columns.length);
    columns.forEach((column, i) => {
      const cell = record[i]!;
      const value = rows[r]![column.columnKey];
      const where = `row ${r + 1}, ${column.displayName}`;
      if (value === null) expect(cell, where).toEqual({ text: '', quoted: false });
      else if (typeof value === 'number' || typeof value === 'boolean') expect(cell.text, where).toBe(String(value));
      else expect(meaning(cell.text, column.type), where).toBe(meaning(value, column.type));
    });
  });
}

/** Rows and column types of a Parquet file, read by a DuckDB of the test's own. */
export async function readParquet(t: TestApp, bytes: Buffer): Promise<{ types: Record<string, string>; rows: Row[] }> {
  const file = path.join(t.dataDir, `export-${Math.random().toString(36).slice(2)}.parquet`);
  fs.writeFileSync(file, bytes);
  const duckdb = await openTestDuckDb();
  try {
    const described = await duckdb.all({ sql: 'DESCRIBE SELECT * FROM read_parquet($1)', parameters: [file] });
    const types = Object.fromEntries(described.map((row) => [String(row.column_name), String(row.column_type)]));
    const rows = await duckdb.all({ sql: 'SELECT * FROM read_parquet($1)', parameters: [file] });
    return { types, rows };
  } finally {
    duckdb.close();
    fs.rmSync(file, { force: true });
  }
}

/** The Parquet rows are the grid's, in its order, each value meaning the same. */
export function expectParquetMatchesGrid(parquet: { rows: Row[] }, columns: Column[], rows: Row[]): void {
  expect(parquet.rows.length, 'rows in the file').toBe(rows.length);
  const read = (source: Row[], key: (c: Column) => string) =>
    source.map((row) => columns.map((c) => meaning(row[key(c)], c.type)));
  expect(read(parquet.rows, (c) => c.displayName)).toEqual(read(rows, (c) => c.columnKey));
}

/** The first sheet of an XLSX file: its rows of cells (value and number format), header first. */
export async function readXlsx(bytes: Buffer): Promise<{ value: ExcelJS.CellValue; numFmt: string }[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0]!;
  const rows: { value: ExcelJS.CellValue; numFmt: string }[][] = [];
  const width = sheet.columnCount;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    rows.push(
      Array.from({ length: width }, (_, i) => {
        const cell = row.getCell(i + 1);
        return { value: cell.value, numFmt: cell.numFmt ?? '' };
      }),
    );
  });
  return rows;
}

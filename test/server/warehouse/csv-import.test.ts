import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/server/errors';
import { csvFileError } from '../../../src/server/warehouse/csv-errors';
import { importCsvToTable } from '../../../src/server/warehouse/csv-import';
import type { WarehouseExecutor } from '../../../src/server/warehouse/types';
import { makeWarehouse, scratchOf, sql, writeFile } from './helpers';

const ACCOUNT = '55555555-5555-4555-8555-555555555555';
const MB = 1024 * 1024;

function setup() {
  const { warehouse } = makeWarehouse();
  const executor = warehouse.forAccount(ACCOUNT);
  const dir = scratchOf(executor);
  // As the static tables service does: an import holds the table's lock.
  const importFile = (name: string, content: string | Buffer, maxBytes = MB) =>
    executor.exclusive('table:static.t_1', () =>
      importCsvToTable(executor, {
        filePath: writeFile(dir, name, content),
        schema: 'static',
        table: 't_1',
        maxBytes,
        maxColumns: 500,
      }),
    );
  return { executor, importFile };
}

/** The BadInput message an import fails with. */
async function failure(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`Expected an AppError, got ${String(error)}`);
  expect(error.kind).toBe('BadInput');
  return error.message;
}

const tablesIn = (executor: WarehouseExecutor) =>
  executor.all(sql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'static' ORDER BY 1"));

describe('CSV import', () => {
  it('reads a file with detected types into static.t_<id> and reports its columns and rows', async () => {
    const { executor, importFile } = setup();
    const csv = [
      'id,name,price,active,born,seen at,note',
      '1,Ann,12.5,true,2001-02-03,2024-01-15 12:34:56,"a, quoted ""value"""',
      '2,Bob,7,false,1999-12-31,2024-01-16 08:00:00,',
    ].join('\n');
    const result = await importFile('people.csv', csv);
    expect(result).toEqual({
      rowCount: 2,
      columns: [
        { name: 'id', type: 'Number', sqlType: 'BIGINT' },
        { name: 'name', type: 'Text', sqlType: 'VARCHAR' },
        { name: 'price', type: 'Number', sqlType: 'DOUBLE' },
        { name: 'active', type: 'Boolean', sqlType: 'BOOLEAN' },
        { name: 'born', type: 'Date', sqlType: 'DATE' },
        { name: 'seen at', type: 'DateTime', sqlType: 'TIMESTAMP' },
        { name: 'note', type: 'Text', sqlType: 'VARCHAR' },
      ],
      dates: [
        { name: 'born', type: 'Date', format: 'YYYY-MM-DD' },
        { name: 'seen at', type: 'DateTime', format: 'YYYY-MM-DD hh:mm:ss' },
      ],
      notes: [],
    });
    expect(await executor.all(sql('SELECT * FROM static.t_1 ORDER BY id'))).toEqual([
      {
        id: 1,
        name: 'Ann',
        price: 12.5,
        active: true,
        born: '2001-02-03',
        'seen at': '2024-01-15T12:34:56.000Z',
        note: 'a, quoted "value"',
      },
      {
        id: 2,
        name: 'Bob',
        price: 7,
        active: false,
        born: '1999-12-31',
        'seen at': '2024-01-16T08:00:00.000Z',
        note: null,
      },
    ]);
    expect(await tablesIn(executor)).toEqual([{ table_name: 't_1' }]);
  });

  it('numbers rows in file order when DuckDB reads a large file on several threads', async () => {
    const { executor } = setup();
    const dir = scratchOf(executor);
    // Past DuckDB's read buffer, so the file is split between threads.
    const rows = 1_200_000;
    const lines = Array.from({ length: rows }, (_, i) => `${i + 1},row ${i + 1} of the file with some padding`);
    const filePath = writeFile(dir, 'big.csv', `n,label\n${lines.join('\n')}\n`);
    const result = await importCsvToTable(executor, {
      filePath,
      schema: 'static',
      table: 't_big',
      maxBytes: 200 * MB,
      rowIdColumn: '_row_id',
      maxColumns: 500,
    });
    expect(result.rowCount).toBe(rows);
    const [check] = await executor.all(
      sql('SELECT count(*)::DOUBLE AS n, count(*) FILTER (WHERE _row_id <> n)::DOUBLE AS misplaced FROM static.t_big'),
    );
    expect(check).toEqual({ n: rows, misplaced: 0 });
    // Stored in that order too: unsorted pages read the table in storage order.
    const [stored] = await executor.all(
      sql('SELECT count(*) FILTER (WHERE _row_id <> rowid + 1)::DOUBLE AS misplaced FROM static.t_big'),
    );
    expect(stored).toEqual({ misplaced: 0 });
    // No staging table is left behind, nor the temporary table the file was read into.
    expect(await tablesIn(executor)).toEqual([{ table_name: 't_big' }]);
    const [scratch] = await executor.all(
      sql(
        "SELECT memory_usage_bytes::DOUBLE + temporary_storage_bytes::DOUBLE AS bytes FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'",
      ),
    );
    expect(scratch).toEqual({ bytes: 0 });
  });

  it('imports a file larger than the warehouse memory limit, spilling the rows on their way in', async () => {
    // DuckDB's CSV reader itself holds two buffers of about 30 MB each, so the limit cannot go much lower.
    const { warehouse } = makeWarehouse({ memoryLimit: '128MB' });
    const executor = warehouse.forAccount(ACCOUNT);
    const rows = 1_400_000;
    const padding = 'x'.repeat(80);
    const lines = Array.from({ length: rows }, (_, i) => `${i + 1},label ${i + 1} ${padding},${i % 7}`);
    const filePath = writeFile(scratchOf(executor), 'wide.csv', `n,label,k\n${lines.join('\n')}\n`);
    const result = await importCsvToTable(executor, {
      filePath,
      schema: 'static',
      table: 't_wide',
      maxBytes: 200 * MB,
      rowIdColumn: '_row_id',
      maxColumns: 500,
    });
    expect(fs.statSync(filePath).size).toBeGreaterThan(128 * MB);
    expect(result.rowCount).toBe(rows);
    const [check] = await executor.all(
      sql('SELECT count(*)::DOUBLE AS n, count(*) FILTER (WHERE _row_id <> n)::DOUBLE AS misplaced FROM static.t_wide'),
    );
    expect(check).toEqual({ n: rows, misplaced: 0 });
  });

  it('numbers rows by file order when a header is named rowid, keeping that column as it was', async () => {
    const { executor } = setup();
    const filePath = writeFile(scratchOf(executor), 'rowid.csv', 'ROWID,name,_rowid\n30,c,x\n10,a,y\n20,b,z\n');
    const result = await importCsvToTable(executor, {
      filePath,
      schema: 'static',
      table: 't_1',
      maxBytes: MB,
      rowIdColumn: '_row_id',
      maxColumns: 500,
    });
    expect(result.columns.map((c) => c.name)).toEqual(['ROWID', 'name', '_rowid']);
    expect(await executor.all(sql('SELECT * FROM static.t_1 ORDER BY _row_id'))).toEqual([
      { ROWID: 30, name: 'c', _rowid: 'x', _row_id: 1 },
      { ROWID: 10, name: 'a', _rowid: 'y', _row_id: 2 },
      { ROWID: 20, name: 'b', _rowid: 'z', _row_id: 3 },
    ]);
  });

  it('accepts semicolons or tabs, CRLF line ends, a byte order mark and line breaks inside quotes', async () => {
    const { executor, importFile } = setup();
    expect((await importFile('semi.csv', '\uFEFFa;b\r\n1;"x;\r\ny"\r\n2;z\r\n')).rowCount).toBe(2);
    expect(await executor.all(sql('SELECT a, b FROM static.t_1 ORDER BY a'))).toEqual([
      { a: 1, b: 'x;\r\ny' },
      { a: 2, b: 'z' },
    ]);
    const tabs = await importFile('tabs.tsv', 'x\ty\n1\t2\n');
    expect(tabs.columns.map((c) => c.name)).toEqual(['x', 'y']);
  });

  it('reads the delimiter Excel names on a sep= line before the header, and names a bad line as the user counts', async () => {
    const { executor, importFile } = setup();
    const named = await importFile('excel.csv', '\uFEFFsep=;\r\nname;amount\r\n"a,b";1,5\r\nc;2\r\n');
    expect(named.columns.map((c) => [c.name, c.type])).toEqual([
      ['name', 'Text'],
      ['amount', 'Text'],
    ]);
    expect(await executor.all(sql('SELECT name, amount FROM static.t_1'))).toEqual([
      { name: 'a,b', amount: '1,5' },
      { name: 'c', amount: '2' },
    ]);
    expect(await failure(importFile('bad.csv', 'sep=,\na,b\n1,2\n3\n'))).toContain('Line 4');
  });

  it('reads rows ending in CRLF, LF or CR mixed in one file, keeping line breaks inside quoted values', async () => {
    const { executor, importFile } = setup();
    // A CRLF file whose last line ends in LF, and an LF file whose last line ends in CRLF after "".
    expect((await importFile('crlf-lf.csv', 'a,b\r\n1,x\r\n2,y\n')).rowCount).toBe(2);
    expect(await executor.all(sql('SELECT a, b FROM static.t_1 ORDER BY a'))).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: 'y' },
    ]);
    expect((await importFile('lf-crlf.csv', 'a,b\n1,x\n2,""\r\n')).rowCount).toBe(2);
    expect(await executor.all(sql('SELECT a, b FROM static.t_1 ORDER BY a'))).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: null },
    ]);
    await importFile('quoted.csv', 'a,b\r\n1,"x\r\ny"\n2,"p\nq"\r3,"r\rs"\r\n');
    expect(await executor.all(sql('SELECT a, b FROM static.t_1 ORDER BY a'))).toEqual([
      { a: 1, b: 'x\r\ny' },
      { a: 2, b: 'p\nq' },
      { a: 3, b: 'r\rs' },
    ]);
    // Past the rows DuckDB samples, too; no copy of the file is left behind.
    const rows = Array.from({ length: 30_000 }, (_, i) => `${i},row ${i}`);
    const big = await importFile('big-mixed.csv', `n,label\r\n${rows.join('\r\n')}\r\n30000,last\n`);
    expect(big.rowCount).toBe(30_001);
    expect(await executor.all(sql('SELECT label FROM static.t_1 WHERE n = 30000'))).toEqual([{ label: 'last' }]);
    expect(fs.readdirSync(scratchOf(executor)).filter((f) => f.endsWith('.lf.csv'))).toEqual([]);
  });

  it('names the line of a bad row in a file with mixed line ends, as the user counts lines', async () => {
    const { importFile } = setup();
    expect(await failure(importFile('mixed-short.csv', 'a,b\r\n1,x\n2\r\n3,y\n'))).toBe(
      'Line 3 has 1 value, but the header has 2 columns.',
    );
    expect(await failure(importFile('mixed-quote.csv', 'a,b\r\n1,x\n2,"y\r\n3,z\n'))).toBe(
      'A quoted value on line 3 is never closed.',
    );
  });

  it('reads dates and date-times in the formats real exports use, and says which format each column was read in', async () => {
    const { executor, importFile } = setup();
    const csv = [
      'named,us,de,eu,zoned,local,us time,rfc,short year,text',
      'Jan 1 2000,1/31/2024,31.01.2024,31/01/2024,2024-01-31T10:00:00Z,2024-01-31 10:00,1/31/2024 10:00 AM,"Mon, 01 Jan 2024 10:00:00 +0000",1/31/24,a',
      'Feb 13 2001,2/1/2024,01.02.2024,01/02/2024,2024-02-01T10:00:00+02:00,2024-02-01 11:30,2/1/2024 1:05 PM,"Tue, 02 Jan 2024 10:00:00 +0100",2/1/99,b',
      'dec 31 1999,12/5/2024,05.12.2024,05/12/2024,2024-12-05T00:00:00.5-05:00,,12/5/2024 12:00 AM,,12/5/68,c',
    ].join('\n');
    const result = await importFile('dates.csv', csv);
    expect(result.columns.map((c) => [c.name, c.type])).toEqual([
      ['named', 'Date'],
      ['us', 'Date'],
      ['de', 'Date'],
      ['eu', 'Date'],
      ['zoned', 'DateTime'],
      ['local', 'DateTime'],
      ['us time', 'DateTime'],
      ['rfc', 'DateTime'],
      ['short year', 'Date'],
      ['text', 'Text'],
    ]);
    expect(result.dates).toEqual([
      { name: 'named', type: 'Date', format: 'MMM D YYYY' },
      { name: 'us', type: 'Date', format: 'M/D/YYYY' },
      { name: 'de', type: 'Date', format: 'D.M.YYYY' },
      { name: 'eu', type: 'Date', format: 'D/M/YYYY' },
      { name: 'zoned', type: 'DateTime', format: 'YYYY-MM-DD hh:mm:ss±hh:mm' },
      { name: 'local', type: 'DateTime', format: 'YYYY-MM-DD hh:mm:ss' },
      { name: 'us time', type: 'DateTime', format: 'M/D/YYYY h:mm[:ss] [AM/PM]' },
      { name: 'rfc', type: 'DateTime', format: 'ddd, D MMM YYYY hh:mm:ss ±hhmm' },
      { name: 'short year', type: 'Date', format: 'M/D/YY' },
    ]);
    expect(result.notes).toEqual([
      {
        name: 'short year',
        message: 'Its years are written with two digits, read as 1969 to 2068 (68 is 2068, 69 is 1969).',
      },
    ]);
    const rows = await executor.all(sql('SELECT * FROM static.t_1 ORDER BY named'));
    expect(rows).toEqual([
      {
        named: '1999-12-31',
        us: '2024-12-05',
        de: '2024-12-05',
        eu: '2024-12-05',
        zoned: '2024-12-05T05:00:00.500Z',
        local: null,
        'us time': '2024-12-05T00:00:00.000Z',
        rfc: null,
        'short year': '2068-12-05',
        text: 'c',
      },
      {
        named: '2000-01-01',
        us: '2024-01-31',
        de: '2024-01-31',
        eu: '2024-01-31',
        zoned: '2024-01-31T10:00:00.000Z',
        local: '2024-01-31T10:00:00.000Z',
        'us time': '2024-01-31T10:00:00.000Z',
        rfc: '2024-01-01T10:00:00.000Z',
        'short year': '2024-01-31',
        text: 'a',
      },
      {
        named: '2001-02-13',
        us: '2024-02-01',
        de: '2024-02-01',
        eu: '2024-02-01',
        zoned: '2024-02-01T08:00:00.000Z',
        local: '2024-02-01T11:30:00.000Z',
        'us time': '2024-02-01T13:05:00.000Z',
        rfc: '2024-01-02T09:00:00.000Z',
        'short year': '1999-02-01',
        text: 'b',
      },
    ]);
  });

  it('keeps dates whose day and month cannot be told apart as Text, saying so, and decides from any day above 12', async () => {
    const { executor, importFile } = setup();
    const result = await importFile(
      'ambiguous.csv',
      'either,day first,month first,not all\n01/02/2024,01/02/2024,01/02/2024,1/2/2024\n03/04/2024,13/04/2024,03/14/2024,soon\n',
    );
    expect(result.columns.map((c) => [c.name, c.type])).toEqual([
      ['either', 'Text'],
      ['day first', 'Date'],
      ['month first', 'Date'],
      ['not all', 'Text'],
    ]);
    expect(result.dates.map((d) => [d.name, d.format])).toEqual([
      ['day first', 'D/M/YYYY'],
      ['month first', 'M/D/YYYY'],
    ]);
    expect(result.notes).toEqual([
      {
        name: 'either',
        message:
          'Its dates read both as M/D/YYYY and as D/M/YYYY (no day is above 12), so it was kept as Text rather than guessing which is the day.',
      },
    ]);
    expect(await executor.all(sql('SELECT * FROM static.t_1 ORDER BY "day first"'))).toEqual([
      { either: '01/02/2024', 'day first': '2024-02-01', 'month first': '2024-01-02', 'not all': '1/2/2024' },
      { either: '03/04/2024', 'day first': '2024-04-13', 'month first': '2024-03-14', 'not all': 'soon' },
    ]);
  });

  it('reads a column of dates with and without times as date-times, and text in a date column as Text', async () => {
    const { executor, importFile } = setup();
    const result = await importFile(
      'times.csv',
      'at,mostly\n1/31/2024,Jan 1 2000\n2/1/2024 10:05 PM,Jan 2 2000\n2/13/2024 23:59:30,about then\n',
    );
    expect(result.columns.map((c) => [c.name, c.type])).toEqual([
      ['at', 'DateTime'],
      ['mostly', 'Text'],
    ]);
    expect(result.notes).toEqual([]);
    expect(await executor.all(sql('SELECT "at" FROM static.t_1 ORDER BY "at"'))).toEqual([
      { at: '2024-01-31T00:00:00.000Z' },
      { at: '2024-02-01T22:05:00.000Z' },
      { at: '2024-02-13T23:59:30.000Z' },
    ]);
  });

  it('finds dates past the first rows and in columns DuckDB read as text', async () => {
    const { executor, importFile } = setup();
    // The first 30,000 days are all 12 or less: only a later row tells day-first from month-first.
    const lines = Array.from({ length: 30_000 }, (_, i) => `${(i % 12) + 1}/${(i % 12) + 1}/2020,x`);
    const result = await importFile('late-day.csv', ['d,t', ...lines, '25/12/2020,y'].join('\n'));
    expect(result.dates).toEqual([{ name: 'd', type: 'Date', format: 'D/M/YYYY' }]);
    expect(await executor.all(sql("SELECT d FROM static.t_1 WHERE t = 'y'"))).toEqual([{ d: '2020-12-25' }]);
  });

  it('reads dates and date-times with an era in ISO years wherever they stand, as the sniffer keeps them text', async () => {
    const { executor, importFile } = setup();
    const result = await importFile(
      'eras.csv',
      'day,at,spaced\n0044-03-15 BC,0044-03-15 10:00:00 BC,0044-03-15 BC \n2024-01-01,2024-01-01 09:30:00,2024-01-01\n',
    );
    expect(result.columns.map((c) => [c.name, c.type])).toEqual([
      ['day', 'Date'],
      ['at', 'DateTime'],
      ['spaced', 'Text'],
    ]);
    expect(result.dates).toEqual([
      { name: 'day', type: 'Date', format: 'YYYY-MM-DD [BC]' },
      { name: 'at', type: 'DateTime', format: 'YYYY-MM-DD [BC] hh:mm:ss' },
    ]);
    expect(
      await executor.all(sql('SELECT CAST(day AS VARCHAR) AS d, CAST("at" AS VARCHAR) AS a, spaced FROM static.t_1')),
    ).toEqual([
      { d: '0044-03-15 (BC)', a: '0044-03-15 (BC) 10:00:00', spaced: '0044-03-15 BC ' },
      { d: '2024-01-01', a: '2024-01-01 09:30:00', spaced: '2024-01-01' },
    ]);
  });

  it('keeps a header-only file as an empty table of text columns, and names blank or repeated headers', async () => {
    const { importFile } = setup();
    expect(await importFile('header.csv', 'a,b\n')).toEqual({
      rowCount: 0,
      columns: [
        { name: 'a', type: 'Text', sqlType: 'VARCHAR' },
        { name: 'b', type: 'Text', sqlType: 'VARCHAR' },
      ],
      dates: [],
      notes: [],
    });
    const odd = await importFile('odd.csv', 'a,,a\n1,2,3\n');
    expect(odd.columns.map((c) => c.name)).toEqual(['a', 'column1', 'a_1']);
  });

  it('reads every row to choose types when a value past DuckDB’s sample does not fit the guess', async () => {
    const { executor, importFile } = setup();
    const lines = ['code,label', ...Array.from({ length: 30_000 }, (_, i) => `${i},x`), 'A-1,y'];
    const result = await importFile('late.csv', lines.join('\n'));
    expect(result.rowCount).toBe(30_001);
    expect(result.columns[0]).toEqual({ name: 'code', type: 'Text', sqlType: 'VARCHAR' });
    expect(await executor.all(sql("SELECT label FROM static.t_1 WHERE code = 'A-1'"))).toEqual([{ label: 'y' }]);
  });

  it('names a row with too few or too many values, and its line', async () => {
    const { importFile } = setup();
    expect(await failure(importFile('short.csv', 'a,b,c\n1,x,3\n2,y\n3,z,4\n'))).toBe(
      'Line 3 has 2 values, but the header has 3 columns.',
    );
    expect(await failure(importFile('long.csv', 'a,b,c\n1,x,3\n2,y,5,6\n'))).toBe(
      'Line 3 has 4 values, but the header has 3 columns.',
    );
    const late = ['a,b', ...Array.from({ length: 30_000 }, (_, i) => `${i},x`), '7'].join('\n');
    expect(await failure(importFile('late-short.csv', late))).toBe(
      'Line 30002 has 1 value, but the header has 2 columns.',
    );
  });

  it('refuses a file that is not UTF-8, naming the line', async () => {
    const { importFile } = setup();
    const latin1 = Buffer.concat([
      Buffer.from('name,city\nAnn,'),
      Buffer.from([0x4d, 0xfc, 0x6e, 0x63, 0x68, 0x65, 0x6e]),
      Buffer.from('\n'),
    ]);
    expect(await failure(importFile('latin1.csv', latin1))).toBe(
      'The file is not UTF-8 encoded (invalid characters on line 2). Save it as UTF-8 CSV and try again.',
    );
  });

  it('refuses an empty file, a blank one, and a quote that is never closed', async () => {
    const { importFile } = setup();
    expect(await failure(importFile('empty.csv', ''))).toBe('The file is empty.');
    expect(await failure(importFile('blank.csv', '\n \r\n\t\n'))).toBe('The file is empty.');
    expect(await failure(importFile('quote.csv', 'a,b\n"1,x\n2,y\n'))).toBe(
      'A quoted value on line 2 is never closed.',
    );
  });

  it('refuses a file over the size limit before reading it', async () => {
    const { importFile } = setup();
    expect(await failure(importFile('big.csv', `a\n${'1\n'.repeat(1000)}`, 1024))).toBe(
      'The file is 2 KB, over the limit of 1 KB.',
    );
  });

  it('replaces the table atomically: a failed import leaves the old rows and columns as they were', async () => {
    const { executor, importFile } = setup();
    await importFile('v1.csv', 'a,b\n1,one\n2,two\n');
    await expect(importFile('bad.csv', 'x,y,z\n1,2,3\n4,5\n')).rejects.toThrow(/Line 3/);
    const lines = ['x', ...Array.from({ length: 30_000 }, (_, i) => String(i)), '1,2'].join('\n');
    await expect(importFile('bad-late.csv', lines)).rejects.toThrow(/Line 30002/);
    expect(await executor.all(sql('SELECT * FROM static.t_1 ORDER BY a'))).toEqual([
      { a: 1, b: 'one' },
      { a: 2, b: 'two' },
    ]);
    // No staging table left behind either.
    expect(await tablesIn(executor)).toEqual([{ table_name: 't_1' }]);

    await importFile('v2.csv', 'c\n3\n');
    expect(await executor.all(sql('SELECT * FROM static.t_1'))).toEqual([{ c: 3 }]);
    expect(await tablesIn(executor)).toEqual([{ table_name: 't_1' }]);
  });

  it('runs simultaneous imports into one table one after the other, so both succeed and one wins whole', async () => {
    const { executor, importFile } = setup();
    const results = await Promise.all([importFile('one.csv', 'n\n1\n'), importFile('two.csv', 'n\n2\n3\n')]);
    expect(results.map((r) => r.rowCount)).toEqual([1, 2]);
    const rows = await executor.all(sql('SELECT n FROM static.t_1 ORDER BY n'));
    expect([[{ n: 1 }], [{ n: 2 }, { n: 3 }]]).toContainEqual(rows);
    expect(await tablesIn(executor)).toEqual([{ table_name: 't_1' }]);
  });

  it('tells the user to try again when another writer (outside the import lock) changed the table meanwhile', () => {
    const error = csvFileError(
      new Error('TransactionContext Error: Catalog write-write conflict on create with "t_1"'),
    );
    expect(error).toMatchObject({
      kind: 'Conflict',
      message: 'The table was changed by someone else during the import. Please try again.',
    });
    expect(csvFileError(new Error('IO Error: disk full'))).toBeNull();
  });
});

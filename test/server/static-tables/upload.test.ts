import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn, type CallResult, type TestApp } from '../helpers';
import {
  byName,
  createTable,
  getTable,
  infiniteScroll,
  ok,
  rowsByName,
  uploadCsv,
  uploadFiles,
  warehouseTables,
  type StaticTable,
} from './helpers';

async function tableToImportInto(env: Record<string, string> = {}) {
  const t = await makeApp(env);
  const cookie = await signIn(t, 'owner@example.com');
  const table = await createTable(t, cookie, {
    name: 'Target',
    columns: [{ displayName: 'Old' }],
    rows: [['kept 1'], ['kept 2']],
  });
  return { t, cookie, table };
}

/** The table, its rows, the warehouse and the upload folder are as they were before the failed upload. */
async function expectUntouched(t: TestApp, cookie: string, before: StaticTable): Promise<void> {
  expect(await getTable(t, cookie, before.id)).toEqual(before);
  expect(await warehouseTables(t, cookie)).toHaveLength(1);
  expect(await uploadFiles(t, cookie)).toEqual([]);
}

interface Imported {
  rowCount: number;
  columns: StaticTable['columns'];
}

/** The last `count` rows of the table, newest first. */
const lastRows = async (t: TestApp, cookie: string, tableId: string, count: number) =>
  ok(
    await infiniteScroll(t, cookie, tableId, {
      page: 1,
      pageSize: count,
      sorting: [{ columnKey: '_row_id', direction: 'Descending' }],
    }),
  );

const keyOfName = (imported: Imported, name: string) =>
  imported.columns.find((c) => c.displayName === name)?.columnKey ?? '';

describe('PUT /api/static-tables/{id}/upload', () => {
  it('replaces the columns and rows with the CSV file, detecting column types', async () => {
    const { t, cookie, table } = await tableToImportInto();
    const csv =
      'Name,Amount,Day,At,Active\r\n' +
      'Alpha,10,2024-01-05,2024-01-05 10:00:00,true\r\n' +
      '"Beta, Inc.",25.5,2024-02-10,2024-02-10 12:30:00,false\r\n' +
      '"Say ""hi""",,,,\r\n';
    const imported = ok(await uploadCsv(t, cookie, table.id, csv)) as Imported;
    expect(imported.rowCount).toBe(3);
    expect(imported.columns.map((c) => [c.displayName, c.type, c.order])).toEqual([
      ['Name', 'Text', 0],
      ['Amount', 'Number', 1],
      ['Day', 'Date', 2],
      ['At', 'DateTime', 3],
      ['Active', 'Boolean', 4],
    ]);

    const after = await getTable(t, cookie, table.id);
    expect(after.columns).toEqual(imported.columns);
    expect(after.rowCount).toBe(3);
    expect(after.rows.map((r) => r._row_id)).toEqual([1, 2, 3]);
    expect(byName(after, after.rows)).toEqual([
      { Name: 'Alpha', Amount: 10, Day: '2024-01-05', At: '2024-01-05T10:00:00.000Z', Active: true },
      { Name: 'Beta, Inc.', Amount: 25.5, Day: '2024-02-10', At: '2024-02-10T12:30:00.000Z', Active: false },
      { Name: 'Say "hi"', Amount: null, Day: null, At: null, Active: null },
    ]);
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
    expect(await uploadFiles(t, cookie)).toEqual([]);
  });

  it('reads a CRLF file whose last line ends in LF, a "" last field, and dates such as Jan 1 2000, naming their format', async () => {
    const { t, cookie, table } = await tableToImportInto();
    const csv = 'Name,Joined,Note\r\nAda,Jan 1 2000,x\r\nBob,Feb 13 1999,""\r\nCy,Dec 31 2001,""\n';
    const imported = ok(await uploadCsv(t, cookie, table.id, csv)) as Imported & {
      dateFormats: { displayName: string; type: string; format: string }[];
    };
    expect(imported.rowCount).toBe(3);
    expect(imported.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['Name', 'Text'],
      ['Joined', 'Date'],
      ['Note', 'Text'],
    ]);
    expect(imported.dateFormats.map((d) => [d.displayName, d.type, d.format])).toEqual([
      ['Joined', 'Date', 'MMM D YYYY'],
    ]);
    // Sorted as dates, not alphabetically.
    const joined = keyOfName(imported, 'Joined');
    const sorted = ok(
      await infiniteScroll(t, cookie, table.id, {
        page: 1,
        pageSize: 10,
        sorting: [{ columnKey: joined, direction: 'Ascending' }],
      }),
    );
    expect(sorted.data.map((r) => r[joined])).toEqual(['1999-02-13', '2000-01-01', '2001-12-31']);
    expect(await uploadFiles(t, cookie)).toEqual([]);
  });

  it('keeps every number as written: decimals and integers a double would change are exact, the rest stay doubles or Text', async () => {
    const { t, cookie, table } = await tableToImportInto();
    const csv =
      'Money,Id,Plain,Science,Huge,Long\n' +
      '99999999999999.999999,9007199254740993,0.1,1e5,123456789012345678901234567890123456789012,1\n' +
      '204142800000.079190,-9223372036854775808,2.5,2.5e-3,1,1.234567890123456e5\n' +
      ',9223372036854775808,,,12345678901234567890123456789012345678.5,\n';
    const imported = ok(await uploadCsv(t, cookie, table.id, csv)) as Imported & {
      notes: { displayName: string; message: string }[];
    };
    expect(imported.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['Money', 'Number'],
      ['Id', 'Number'],
      ['Plain', 'Number'],
      ['Science', 'Number'],
      ['Huge', 'Text'],
      ['Long', 'Text'],
    ]);
    expect(imported.notes.map((n) => [n.displayName, n.message])).toEqual([
      [
        'Huge',
        '2 values would change as a number (more than 38 digits, or beyond the range of a number), so it was kept as Text, every value as written.',
      ],
      [
        'Long',
        '1 value would change as a double, and not every value is a plain decimal (one is written with an exponent, such as 1.5e3), so it was kept as Text, every value as written.',
      ],
    ]);
    const after = await getTable(t, cookie, table.id);
    // Numbers a JSON number would change arrive as their exact text; the others as numbers.
    expect(byName(after, after.rows)).toEqual([
      {
        Money: '99999999999999.999999',
        Id: '9007199254740993',
        Plain: 0.1,
        Science: 100000,
        Huge: '123456789012345678901234567890123456789012',
        Long: '1',
      },
      {
        Money: '204142800000.079190',
        Id: '-9223372036854775808',
        Plain: 2.5,
        Science: 0.0025,
        Huge: '1',
        Long: '1.234567890123456e5',
      },
      {
        Money: null,
        Id: '9223372036854775808',
        Plain: null,
        Science: null,
        Huge: '12345678901234567890123456789012345678.5',
        Long: null,
      },
    ]);
    // Compared exactly: the two values a double would make one are told apart.
    const id = keyOfName(imported, 'Id');
    const over = ok(
      await infiniteScroll(t, cookie, table.id, {
        page: 1,
        pageSize: 10,
        filterGroups: [{ filters: [{ columnKey: id, operator: 'GreaterThan', value: '9007199254740992' }] }],
      }),
    );
    expect(over.data.map((r) => r[id])).toEqual(['9007199254740993', '9223372036854775808']);
  });

  it('reads every row as written, not only the rows DuckDB samples: a later 1.5, 01234, +5 or 0x1F changes no value', async () => {
    const { t, cookie, table } = await tableToImportInto();
    // DuckDB's sniffer types columns from the first 20,480 rows; its reading of a later value it did
    // not see rounded 1.5 to 2 in a whole-number column, and read 01234 as 1234 and 0x1F as 31.
    const sampled = 25_000;
    const lines = Array.from({ length: sampled }, (_, i) => `${i},${i + 10000},${i + 1},${i}.5,${i}`);
    lines.push('1.5,01234,+5,07.5,9007199254740993');
    const csv = `Whole,Zip,Signed,Half,Big\n${lines.join('\n')}\n0x1F,,,,\n`;
    const imported = ok(await uploadCsv(t, cookie, table.id, csv)) as Imported & {
      notes: { displayName: string; message: string }[];
    };
    expect(imported.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['Whole', 'Text'],
      ['Zip', 'Text'],
      ['Signed', 'Text'],
      ['Half', 'Text'],
      ['Big', 'Number'],
    ]);
    const leading = (example: string) =>
      `Values such as "${example}" are written with a leading zero, a plus sign or a digit separator, ` +
      'which a number would drop, so it was kept as Text, every value as written.';
    expect(imported.notes.map((n) => [n.displayName, n.message])).toEqual([
      ['Whole', leading('0x1F')],
      ['Zip', leading('01234')],
      ['Signed', leading('+5')],
      ['Half', leading('07.5')],
    ]);
    const after = await lastRows(t, cookie, table.id, 3);
    expect(byName(imported, after.data)).toEqual([
      { Whole: '0x1F', Zip: null, Signed: null, Half: null, Big: null },
      { Whole: '1.5', Zip: '01234', Signed: '+5', Half: '07.5', Big: '9007199254740993' },
      {
        Whole: String(sampled - 1),
        Zip: String(sampled + 9999),
        Signed: String(sampled),
        Half: `${sampled - 1}.5`,
        Big: sampled - 1,
      },
    ]);

    // Without the hex value, the whole numbers with a later 1.5 are numbers, 1.5 among them (a new
    // table: a re-import keeps a Text column Text).
    const fresh = await createTable(t, cookie, { name: 'Fresh' });
    const numbers = ok(
      await uploadCsv(t, cookie, fresh.id, `Whole\n${Array.from({ length: sampled }, (_, i) => i).join('\n')}\n1.5\n`),
    ) as Imported;
    expect(numbers.columns.map((c) => [c.displayName, c.type])).toEqual([['Whole', 'Number']]);
    const last = ok(
      await infiniteScroll(t, cookie, fresh.id, {
        page: 1,
        pageSize: 1,
        sorting: [{ columnKey: '_row_id', direction: 'Descending' }],
      }),
    );
    expect(byName(numbers, last.data)).toEqual([{ Whole: 1.5 }]);
  });

  it('keeps the time of a date and time that comes after the rows DuckDB samples in a column of dates', async () => {
    const { t, cookie, table } = await tableToImportInto();
    // DuckDB's DATE reading of a later `2024-03-01 10:30` kept `2024-03-01` and dropped the time.
    const days = Array.from({ length: 25_000 }, (_, i) =>
      new Date(Date.UTC(2000, 0, 1 + (i % 9000))).toISOString().slice(0, 10),
    );
    const imported = ok(
      await uploadCsv(
        t,
        cookie,
        table.id,
        `Day,Only\n${days.map((d) => `${d},${d}`).join('\n')}\n2024-03-01 10:30,2024-03-01\n`,
      ),
    ) as Imported & { dateFormats: { displayName: string; type: string; format: string }[] };
    expect(imported.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['Day', 'DateTime'],
      ['Only', 'Date'],
    ]);
    expect(imported.dateFormats.map((f) => [f.displayName, f.type, f.format])).toEqual([
      ['Day', 'DateTime', 'YYYY-MM-DD hh:mm:ss'],
      ['Only', 'Date', 'YYYY-MM-DD'],
    ]);
    const last = await lastRows(t, cookie, table.id, 2);
    expect(byName(imported, last.data)).toEqual([
      { Day: '2024-03-01T10:30:00.000Z', Only: '2024-03-01' },
      { Day: `${days.at(-1)}T00:00:00.000Z`, Only: days.at(-1) },
    ]);
  });

  it('keeps the offset, the nanoseconds and the era of dates and date-times that come after the rows DuckDB samples', async () => {
    const { t, cookie, table } = await tableToImportInto();
    // DuckDB's TIMESTAMP reading of a later value kept the wall time of `+02:00` and cut nanoseconds to
    // microseconds; its DATE reading kept `0044-03-15` of `0044-03-15 BC` (44 BC is the ISO year -0043).
    const rows = Array.from({ length: 25_000 }, (_, i) => {
      const at = new Date(Date.UTC(2000, 0, 1, 0, 0, i)).toISOString();
      const [day, time] = [at.slice(0, 10), at.slice(11, 19)];
      return `${day} ${time},${day} ${time},${day},${day},${day} ${time}`;
    });
    const late =
      '2024-01-05T10:00:00+02:00,2024-01-05 10:00:00.123456789,2024-01-05T00:00:00+02:00,0044-03-15 BC,2024-01-05 10:00:00';
    const imported = ok(
      await uploadCsv(t, cookie, table.id, `At,Nanos,Day,Era,Plain\n${rows.join('\n')}\n${late}\n`),
    ) as Imported & { notes: { displayName: string; message: string }[] };
    expect(imported.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['At', 'DateTime'],
      ['Nanos', 'DateTime'],
      ['Day', 'DateTime'],
      ['Era', 'Date'],
      ['Plain', 'DateTime'],
    ]);
    const last = await lastRows(t, cookie, table.id, 2);
    expect(byName(imported, last.data)).toEqual([
      {
        At: '2024-01-05T08:00:00.000Z',
        Nanos: '2024-01-05T10:00:00.123456789Z',
        Day: '2024-01-04T22:00:00.000Z',
        Era: '-000043-03-15',
        Plain: '2024-01-05T10:00:00.000Z',
      },
      {
        At: '2000-01-01T06:56:39.000Z',
        Nanos: '2000-01-01T06:56:39.000Z',
        Day: '2000-01-01T00:00:00.000Z',
        Era: '2000-01-01',
        Plain: '2000-01-01T06:56:39.000Z',
      },
    ]);
  });

  it('reads every row to type a column when a later value is no value of its sniffed type', async () => {
    const { t, cookie, table } = await tableToImportInto();
    // Read as text, 2024-02-30 failed the copy's cast to DATE: the import then reads every row, as
    // it does when DuckDB's reader fails, and the column is Text.
    const days = Array.from({ length: 25_000 }, (_, i) =>
      new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10),
    );
    const imported = ok(
      await uploadCsv(
        t,
        cookie,
        table.id,
        `Day,Other\n${days.map((d) => `${d},${d}`).join('\n')}\n2024-02-30,2024-03-01\n`,
      ),
    ) as Imported;
    expect(imported.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['Day', 'Text'],
      ['Other', 'Date'],
    ]);
    const last = await lastRows(t, cookie, table.id, 1);
    expect(byName(imported, last.data)).toEqual([{ Day: '2024-02-30', Other: '2024-03-01' }]);
  });

  it('keeps a date and time column with nanoseconds and an offset as Text, and says why', async () => {
    const { t, cookie, table } = await tableToImportInto();
    const rows = Array.from({ length: 21_000 }, (_, i) => `2000-01-01 00:00:${String(i % 60).padStart(2, '0')}`);
    const imported = ok(
      await uploadCsv(t, cookie, table.id, `At\n${rows.join('\n')}\n2024-01-05T10:00:00.123456789+02:00\n`),
    ) as Imported & { notes: { displayName: string; message: string }[] };
    expect(imported.columns.map((c) => [c.displayName, c.type])).toEqual([['At', 'Text']]);
    expect(imported.notes.map((n) => [n.displayName, n.message])).toEqual([
      [
        'At',
        'Its values have more than six digits after the second, which a date and time holds only without an ' +
          'offset and between the years 1677 and 2262, so it was kept as Text, every value as written.',
      ],
    ]);
  });

  it("keeps the nanoseconds of instants, and filters them in the column's own precision", async () => {
    const { t, cookie, table } = await tableToImportInto();
    // DuckDB sniffs I and J as instants (TIMESTAMPTZ, microseconds) and cut .123456789 to .123456.
    const imported = ok(
      await uploadCsv(
        t,
        cookie,
        table.id,
        'I,J,K,L\n2024-01-05T10:00:00.123456789Z,2024-01-05T10:00:00.123456789+02:00,2024-01-05 10:00:00.123456,' +
          '2024-01-05 10:00:00.123456+00\n2024-01-06T10:00:00Z,2024-01-06T10:00:00+02:00,2024-01-06 10:00:00,' +
          '2024-01-06 12:00:00.5+02\n',
      ),
    ) as Imported & { notes: { displayName: string; message: string }[] };
    expect(imported.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['I', 'DateTime'],
      ['J', 'Text'],
      ['K', 'DateTime'],
      ['L', 'DateTime'],
    ]);
    expect(imported.notes.map((n) => n.displayName)).toEqual(['J']);
    const after = await getTable(t, cookie, table.id);
    expect(byName(after, after.rows)).toEqual([
      {
        I: '2024-01-05T10:00:00.123456789Z',
        J: '2024-01-05T10:00:00.123456789+02:00',
        K: '2024-01-05T10:00:00.123456Z',
        L: '2024-01-05T10:00:00.123456Z',
      },
      {
        I: '2024-01-06T10:00:00.000Z',
        J: '2024-01-06T10:00:00+02:00',
        K: '2024-01-06T10:00:00.000Z',
        L: '2024-01-06T10:00:00.500Z',
      },
    ]);
    // Filter values were cut to microseconds: .1234568 found nothing below it, .1234561 equalled .123456.
    const rowsWhere = async (name: string, operator: string, value: string) => {
      const page = ok(
        await infiniteScroll(t, cookie, table.id, {
          page: 1,
          pageSize: 10,
          filterGroups: [{ filters: [{ columnKey: keyOfName(imported, name), operator, value }] }],
        }),
      );
      return page.data.map((row) => row._row_id);
    };
    expect(await rowsWhere('I', 'Equals', '2024-01-05T12:00:00.123456789+02:00')).toEqual([1]);
    expect(await rowsWhere('I', 'LessThan', '2024-01-05T10:00:00.1234568Z')).toEqual([1]);
    expect(await rowsWhere('I', 'GreaterThan', '2024-01-05T10:00:00.1234567Z')).toEqual([1, 2]);
    expect(await rowsWhere('K', 'Equals', '2024-01-05T10:00:00.1234561Z')).toEqual([]);
    expect(await rowsWhere('K', 'NotEquals', '2024-01-05T10:00:00.1234561Z')).toEqual([1, 2]);
    expect(await rowsWhere('K', 'LessThanOrEquals', '2024-01-05T10:00:00.1234561Z')).toEqual([1]);
    expect(await rowsWhere('K', 'GreaterThan', '2024-01-05T10:00:00.1234561Z')).toEqual([2]);
  });

  it('stores headers that look like generated column keys without mixing columns up', async () => {
    const { t, cookie, table } = await tableToImportInto();
    const imported = ok(await uploadCsv(t, cookie, table.id, 'abcd,wxyz,_row_id\n1,2,3\n4,5,6\n')) as Imported;
    expect(imported.columns.map((c) => c.displayName)).toEqual(['abcd', 'wxyz', '_row_id']);
    const after = await getTable(t, cookie, table.id);
    expect(after.rows.map((r) => r._row_id)).toEqual([1, 2]);
    expect(byName(after, after.rows)).toEqual([
      { abcd: 1, wxyz: 2, _row_id: 3 },
      { abcd: 4, wxyz: 5, _row_id: 6 },
    ]);
  });

  it('reads a semicolon-separated file with a byte order mark, and a file with a header only', async () => {
    const { t, cookie, table } = await tableToImportInto();
    ok(await uploadCsv(t, cookie, table.id, '\uFEFFa;b\n1;x\n2;y\n'));
    expect(await rowsByName(t, cookie, table.id)).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: 'y' },
    ]);
    const headerOnly = ok(await uploadCsv(t, cookie, table.id, 'c,d\n')) as Imported;
    expect(headerOnly.rowCount).toBe(0);
    const after = await getTable(t, cookie, table.id);
    expect(after.columns.map((c) => c.displayName)).toEqual(['c', 'd']);
    expect(after.rows).toEqual([]);
  });

  it('accepts the id and name fields the import form sends before the file', async () => {
    const { t, cookie, table } = await tableToImportInto();
    const boundary = '----ws-import-form';
    const part = (headers: string, body: string) => `--${boundary}\r\n${headers}\r\n\r\n${body}\r\n`;
    const payload =
      part('Content-Disposition: form-data; name="id"', table.id) +
      part('Content-Disposition: form-data; name="name"', 'Target') +
      part('Content-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv', 'k\nv\n') +
      `--${boundary}--\r\n`;
    const res = await call(t.server, 'PUT', `/api/static-tables/${table.id}/upload`, {
      cookie,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: payload,
    });
    expect((ok(res) as Imported).rowCount).toBe(1);
  });

  it.each([
    ['text/plain', 'data.csv'],
    ['application/vnd.ms-excel', 'data.csv'],
    ['application/json', 'data.json'],
  ])('refuses a file of type %s with "Failed to upload file"', async (contentType, fileName) => {
    const { t, cookie, table } = await tableToImportInto();
    const res = await uploadCsv(t, cookie, table.id, 'a,b\n1,2\n', { contentType, fileName });
    expect(expectError(res, 400)).toBe('Failed to upload file: only CSV files (text/csv) are accepted.');
    await expectUntouched(t, cookie, table);
  });

  it('refuses a request that is not multipart, or holds no file', async () => {
    const { t, cookie, table } = await tableToImportInto();
    const json = await call(t.server, 'PUT', `/api/static-tables/${table.id}/upload`, {
      cookie,
      body: { file: 'a,b' },
    });
    expect(expectError(json, 400)).toBe('Failed to upload file: send the file as multipart/form-data.');

    const boundary = '----ws-no-file';
    const noFile = await call(t.server, 'PUT', `/api/static-tables/${table.id}/upload`, {
      cookie,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nTarget\r\n--${boundary}--\r\n`,
    });
    expect(expectError(noFile, 400)).toBe('Failed to upload file: no file was sent.');
    await expectUntouched(t, cookie, table);
  });

  const badFiles: [string, string | Buffer, RegExp][] = [
    ['a row with too few values', 'a,b\n1,2\n3\n4,5\n', /^Line 3 has 1 value, but the header has 2 columns\.$/],
    ['a row with too many values', 'a,b\n1,2\n3,4\n5,6,7\n', /^Line 4 has 3 values, but the header has 2 columns\.$/],
    ['an unclosed quote', 'a,b\n1,"2\n3,4\n', /^A quoted value on line 2 is never closed\.$/],
    ['bytes that are not UTF-8', Buffer.from('a,b\nx,\xff\xfe\n', 'latin1'), /not UTF-8 encoded .*line 2/],
    ['an empty file', '', /^The file is empty\.$/],
    ['a file of blank lines', ' \r\n\r\n', /^The file is empty\.$/],
  ];

  it.each(badFiles)('refuses %s with a clear 400 and leaves the table untouched', async (_, content, message) => {
    const { t, cookie, table } = await tableToImportInto();
    const res = await uploadCsv(t, cookie, table.id, content);
    expect(expectError(res, 400)).toMatch(message);
    await expectUntouched(t, cookie, table);
  });

  it('refuses a file over UPLOAD_MAX_MB with 413 naming the limit, and leaves the table untouched', async () => {
    const { t, cookie, table } = await tableToImportInto({ UPLOAD_MAX_MB: '0.001' });
    const ok1k = await uploadCsv(t, cookie, table.id, `a\n${'1\n'.repeat(400)}`);
    expect(ok1k.status, JSON.stringify(ok1k.body)).toBe(200);
    const before = await getTable(t, cookie, table.id);

    const res: CallResult = await uploadCsv(t, cookie, table.id, `a\n${'1\n'.repeat(600)}`);
    expect(expectError(res, 413)).toBe('Failed to upload file: the file is over the limit of 1 KB.');
    await expectUntouched(t, cookie, before);
  });

  it('answers 404 for a table that does not exist, and reads nothing', async () => {
    const { t, cookie } = await tableToImportInto();
    const res = await uploadCsv(t, cookie, '00000000-0000-0000-0000-000000000000', 'a\n1\n');
    expect(expectError(res, 404)).toBe('Table not found.');
    expect(await uploadFiles(t, cookie)).toEqual([]);
  });
});

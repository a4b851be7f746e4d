import { describe, expect, it } from 'vitest';
import type { CsvImportAnswer } from '../../../src/shared/static-tables';
import type { ImportPreview } from '../../../src/shared/static-table-import';
import { call, expectError, makeApp, signIn, type CallResult, type TestApp } from '../helpers';
import {
  allWarehouseTables,
  appWithTeam,
  createTable,
  getTable,
  keyOf,
  mutation,
  ok,
  query,
  rowsByName,
  trpcOk,
  uploadCsv,
  uploadFiles,
  type StaticTable,
} from './helpers';

/** A multipart request holding one CSV file, to any of the import paths. */
function sendCsv(
  t: TestApp,
  cookie: string,
  method: 'PUT' | 'POST',
  url: string,
  csv: string,
  fileName = 'data.csv',
): Promise<CallResult> {
  const boundary = '----ws-import-modes';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call(t.server, method, url, {
    cookie,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: payload,
  });
}

async function owner(): Promise<{ t: TestApp; cookie: string }> {
  const t = await makeApp();
  return { t, cookie: await signIn(t, 'owner@example.com') };
}

/** A table with a Name and an Amount column and two rows (Amount held as text, as typed in). */
function people(t: TestApp, cookie: string): Promise<StaticTable> {
  return createTable(t, cookie, {
    name: 'People',
    columns: [{ displayName: 'Name' }, { displayName: 'Amount' }],
    rows: [
      ['Ada', '10'],
      ['Bob', '20'],
    ],
  });
}

describe('import preview (tRPC staticTables.importPreview and POST .../upload/preview)', () => {
  it('shows numbers as the import will store them: exact where a double would change them, else Text', async () => {
    const { t, cookie } = await owner();
    const table = await people(t, cookie);
    const csv = 'Money,Plain,Huge\n99999999999999.999999,0.1,1.5e400\n204142800000.079190,2.5,7\n';
    const preview = trpcOk(
      await mutation<ImportPreview>(t, 'staticTables.importPreview', { id: table.id, head: csv }, cookie),
    );
    expect(preview.columns).toEqual([
      { name: 'Money', type: 'Number' },
      { name: 'Plain', type: 'Number' },
      { name: 'Huge', type: 'Text' },
    ]);
    expect(preview.rows).toEqual([
      ['99999999999999.999999', 0.1, '1.5e400'],
      ['204142800000.079190', 2.5, '7'],
    ]);
  });

  it('types a column as the import will when a value after the rows DuckDB samples does not fit its sniffed type', async () => {
    const { t, cookie } = await owner();
    const table = await people(t, cookie);
    // 25,000 short rows fit the head: the 25,001st is no date, so the import keeps the column Text.
    const head = `Day\n${'2024-01-05\n'.repeat(25_000)}2024-02-30\n`;
    const preview = trpcOk(
      await mutation<ImportPreview>(t, 'staticTables.importPreview', { id: table.id, head }, cookie),
    );
    expect(preview.columns).toEqual([{ name: 'Day', type: 'Text' }]);
    expect(preview.rows[0]).toEqual(['2024-01-05']);
  });

  it('shows the first rows with detected types, and the Append mapping by name', async () => {
    const { t, cookie } = await owner();
    const table = await people(t, cookie);
    const csv = ' name ,AMOUNT,Joined,Active\nCy,30,2024-01-05,true\nDi,40.5,2024-02-06,false\n';
    const viaTrpc = trpcOk(
      await mutation<ImportPreview>(t, 'staticTables.importPreview', { id: table.id, head: csv }, cookie),
    );
    const viaRest = ok(
      (await sendCsv(
        t,
        cookie,
        'POST',
        `/api/static-tables/${table.id}/upload/preview`,
        csv,
      )) as CallResult<ImportPreview>,
    );
    expect(viaRest).toEqual(viaTrpc);
    expect(viaTrpc.columns).toEqual([
      { name: 'name', type: 'Text' },
      { name: 'AMOUNT', type: 'Number' },
      { name: 'Joined', type: 'Date' },
      { name: 'Active', type: 'Boolean' },
    ]);
    expect(viaTrpc.rows).toEqual([
      ['Cy', 30, '2024-01-05', true],
      ['Di', 40.5, '2024-02-06', false],
    ]);
    expect(viaTrpc.tableHasData).toBe(true);
    expect(viaTrpc.more).toBe(false);
    expect(viaTrpc.mapping.map((m) => [m.name, m.column?.displayName ?? null])).toEqual([
      ['name', 'Name'],
      ['AMOUNT', 'Amount'],
      ['Joined', null],
      ['Active', null],
    ]);
    expect(viaTrpc.mapping[0]?.column?.columnKey).toBe(keyOf(table, 'Name'));
    expect(viaTrpc.unfilled).toEqual([]);
    expect(viaTrpc.removed).toEqual([]);
    expect(viaTrpc.appendProblem).toBeNull();
    expect(await uploadFiles(t, cookie)).toEqual([]);
  });

  it('reads only whole records of a cut head, says more rows follow, and tells an empty table', async () => {
    const { t, cookie } = await owner();
    const blank = ok(await mutation<{ id: string }>(t, 'staticTables.createBlank', undefined, cookie)).result.data;
    const head = 'x,y\n1,"x\ny"\n2,z\n3,"cut';
    const preview = trpcOk(
      await mutation<ImportPreview>(t, 'staticTables.importPreview', { id: blank.id, head, truncated: true }, cookie),
    );
    expect(preview.rows).toEqual([
      [1, 'x\ny'],
      [2, 'z'],
    ]);
    expect(preview.more).toBe(true);
    expect(preview.tableHasData).toBe(false);
    expect(preview.removed.map((c) => c.displayName)).toEqual(['A', 'B']);
  });

  it('answers a broken file with the import’s own message', async () => {
    const { t, cookie } = await owner();
    const table = await people(t, cookie);
    const broken = 'a,b\n1,2\n3,"4\n';
    const res = await mutation(t, 'staticTables.importPreview', { id: table.id, head: broken }, cookie);
    expect(res.status).toBe(400);
    const imported = expectError(await uploadCsv(t, cookie, table.id, broken), 400);
    expect(imported).toMatch(/never closed|could not be read/);
    expect(JSON.stringify(res.body)).toContain(imported);
  });
});

describe('Append (PUT .../upload?mode=Append)', () => {
  it('adds the rows below, matching columns by name and keeping their keys, and adds the others', async () => {
    const { t, cookie } = await owner();
    const table = await people(t, cookie);
    const csv = 'AMOUNT , name,Team\n30,Cy,Blue\n40,Di,\n';
    const answer = ok(
      (await sendCsv(
        t,
        cookie,
        'PUT',
        `/api/static-tables/${table.id}/upload?mode=Append`,
        csv,
      )) as CallResult<CsvImportAnswer>,
    );
    expect(answer.mode).toBe('Append');
    expect(answer.rowCount).toBe(4);
    expect(answer.importedRows).toBe(2);
    expect(answer.addedColumns.map((c) => c.displayName)).toEqual(['Team']);
    expect(answer.removedColumns).toEqual([]);
    const after = await getTable(t, cookie, table.id);
    expect(after.columns.map((c) => [c.displayName, c.columnKey])).toEqual([
      ['Name', keyOf(table, 'Name')],
      ['Amount', keyOf(table, 'Amount')],
      ['Team', keyOf(after, 'Team')],
    ]);
    expect(await rowsByName(t, cookie, table.id)).toEqual([
      { Name: 'Ada', Amount: '10', Team: null },
      { Name: 'Bob', Amount: '20', Team: null },
      { Name: 'Cy', Amount: '30', Team: 'Blue' },
      { Name: 'Di', Amount: '40', Team: null },
    ]);
    expect(after.rows.map((r) => r._row_id)).toEqual([1, 2, 3, 4]);
    expect(await allWarehouseTables(t, cookie)).toHaveLength(2); // the table and the copy kept for Undo
  });

  it('refuses values that do not fit a typed column, naming the column and the value', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'Typed' });
    ok(await uploadCsv(t, cookie, table.id, 'n,label\n1,a\n2,b\n'));
    const before = await getTable(t, cookie, table.id);
    const res = await sendCsv(
      t,
      cookie,
      'PUT',
      `/api/static-tables/${table.id}/upload?mode=Append`,
      'N,label\nabc,c\n',
    );
    expect(expectError(res, 400)).toContain(
      'the column "n" holds Number values, but the file\'s value "abc" is not a number',
    );
    expect(await getTable(t, cookie, table.id)).toEqual(before);
  });

  it('refuses a value its typed column would change: 1.5 into whole numbers, a time into dates', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'Typed' });
    ok(await uploadCsv(t, cookie, table.id, 'n,day\n1,2024-01-05\n2,2024-01-06\n'));
    const before = await getTable(t, cookie, table.id);
    const append = (csv: string) => sendCsv(t, cookie, 'PUT', `/api/static-tables/${table.id}/upload?mode=Append`, csv);
    expect(expectError(await append('n\n3\n1.5\n'), 400)).toContain(
      'Cannot append: the column "n" holds Number values, but the file\'s value "1.5" would change in it (the column holds BIGINT values).',
    );
    expect(expectError(await append('day\n2024-01-07 10:30:00\n'), 400)).toContain(
      'the column "day" holds Date values, but the file\'s value "2024-01-07 10:30:00" is not a date (the file\'s column is DateTime)',
    );
    expect(await getTable(t, cookie, table.id)).toEqual(before);
    // Values that fit are appended as they are.
    ok(await append('n,day\n3.0,2024-01-07\n'));
    expect((await rowsByName(t, cookie, table.id)).at(-1)).toEqual({ n: 3, day: '2024-01-07' });
  });

  it('refuses text its typed column would read as another value: 007, a cent too many, nanoseconds, an unread spelling', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'Typed' });
    ok(
      await uploadCsv(
        t,
        cookie,
        table.id,
        'n,cents,at,ok\n1,1234567890123456.78,2024-01-05 10:00:00,true\n2,1.50,2024-01-05 11:00:00,false\n',
      ),
    );
    const before = await getTable(t, cookie, table.id);
    expect(before.columns.map((c) => c.type)).toEqual(['Number', 'Number', 'DateTime', 'Boolean']);
    const append = (csv: string) => sendCsv(t, cookie, 'PUT', `/api/static-tables/${table.id}/upload?mode=Append`, csv);
    // Each file's column is read as text (a fresh import would keep it Text), so each value is read
    // by the rules that type a fresh column: none may become another value.
    expect(expectError(await append('n\n3\n007\n'), 400)).toContain(
      'the column "n" holds Number values, but the file\'s value "007" is not a number as written',
    );
    expect(expectError(await append('cents\n0.125\nn/a\n'), 400)).toContain(
      'the column "cents" holds Number values, but the file\'s value "0.125" is not a number as written',
    );
    expect(expectError(await append('at\n2024-01-06T10:00:00.123456789+02:00\n'), 400)).toContain(
      'the column "at" holds DateTime values, but the file\'s value "2024-01-06T10:00:00.123456789+02:00" is not a date and time as written',
    );
    expect(expectError(await append('ok\nyes\n1\n'), 400)).toContain(
      'the column "ok" holds Boolean values, but the file\'s value "1" is not true or false as written',
    );
    expect(await getTable(t, cookie, table.id)).toEqual(before);
    // Text that reads as itself is appended: an offset applied, a spelling of true read.
    ok(await append('n,cents,at,ok\n3,2.5,2024-01-06T10:00:00+02:00,yes\n'));
    expect((await rowsByName(t, cookie, table.id)).at(-1)).toEqual({
      n: 3,
      cents: 2.5,
      at: '2024-01-06T08:00:00.000Z',
      ok: true,
    });
  });

  it('keeps within the column limit: an append that would pass 500 columns is refused', async () => {
    const { t, cookie } = await owner();
    const columns = Array.from({ length: 499 }, (_, i) => ({ displayName: `c${i}` }));
    const table = await createTable(t, cookie, { name: 'Wide', columns, rows: [columns.map(() => 'x')] });
    const csv = 'c0,new1,new2\n1,2,3\n';
    const preview = trpcOk(
      await mutation<ImportPreview>(t, 'staticTables.importPreview', { id: table.id, head: csv }, cookie),
    );
    expect(preview.appendProblem).toContain('at most 500 columns');
    const res = await sendCsv(t, cookie, 'PUT', `/api/static-tables/${table.id}/upload?mode=Append`, csv);
    expect(expectError(res, 400)).toContain('would add 2 column(s) to the 499 the table has');
    expect((await getTable(t, cookie, table.id)).rowCount).toBe(1);
  });
});

describe('Replace, and Undo of it (restore-kept)', () => {
  it('replaces, then Undo brings back the previous rows and columns, and Redo the file’s', async () => {
    const { t, cookie } = await owner();
    const table = await people(t, cookie);
    const answer = ok(
      (await sendCsv(
        t,
        cookie,
        'PUT',
        `/api/static-tables/${table.id}/upload?mode=Replace`,
        'name,City\nZed,Oslo\n',
      )) as CallResult<CsvImportAnswer>,
    );
    expect(answer.mode).toBe('Replace');
    expect(answer.keptToken).toEqual(expect.any(String));
    expect(await rowsByName(t, cookie, table.id)).toEqual([{ name: 'Zed', City: 'Oslo' }]);
    expect((await getTable(t, cookie, table.id)).keptToken).toBe(answer.keptToken);

    const undone = trpcOk(
      await mutation<{ rowCount: number }>(
        t,
        'staticTables.restoreKept',
        { id: table.id, token: answer.keptToken },
        cookie,
      ),
    );
    expect(undone.rowCount).toBe(2);
    const restored = await getTable(t, cookie, table.id);
    expect(restored.columns).toEqual(table.columns);
    expect(await rowsByName(t, cookie, table.id)).toEqual([
      { Name: 'Ada', Amount: '10' },
      { Name: 'Bob', Amount: '20' },
    ]);

    ok(
      await call(t.server, 'POST', `/api/static-tables/${table.id}/restore-kept`, {
        cookie,
        body: { token: answer.keptToken },
      }),
    );
    expect(await rowsByName(t, cookie, table.id)).toEqual([{ name: 'Zed', City: 'Oslo' }]);
  });

  it('drops the kept copy at the next change: Undo is then refused and the copy is gone', async () => {
    const { t, cookie } = await owner();
    const table = await people(t, cookie);
    const answer = ok(await uploadCsv(t, cookie, table.id, 'Name,Amount\nZed,1\n')) as CsvImportAnswer;
    expect(await allWarehouseTables(t, cookie)).toHaveLength(2);
    const after = await getTable(t, cookie, table.id);
    ok(
      await call(t.server, 'POST', `/api/static-tables/${table.id}/changes`, {
        cookie,
        body: { changes: [{ kind: 'cells', edits: [{ rowId: 1, columnKey: keyOf(after, 'Name'), value: 'Zoe' }] }] },
      }),
    );
    expect(await allWarehouseTables(t, cookie)).toHaveLength(1);
    expect((await getTable(t, cookie, table.id)).keptToken).toBeNull();
    const res = await call(t.server, 'POST', `/api/static-tables/${table.id}/restore-kept`, {
      cookie,
      body: { token: answer.keptToken },
    });
    expect(expectError(res, 409)).toBe(
      'There is nothing to undo: the table has changed since the import or type change.',
    );
    expect(await rowsByName(t, cookie, table.id)).toEqual([{ Name: 'Zoe', Amount: '1' }]);
  });

  it('refuses a token that names another copy', async () => {
    const { t, cookie } = await owner();
    const table = await people(t, cookie);
    ok(await uploadCsv(t, cookie, table.id, 'Name\nZed\n'));
    const res = await call(t.server, 'POST', `/api/static-tables/${table.id}/restore-kept`, {
      cookie,
      body: { token: 'not-this-one' },
    });
    expect(res.status).toBe(409);
    expect(await rowsByName(t, cookie, table.id)).toEqual([{ Name: 'Zed' }]);
  });
});

describe('New table (POST /api/static-tables/upload)', () => {
  it('creates a table named after the file, with its rows', async () => {
    const { t, cookie } = await owner();
    const res = await sendCsv(
      t,
      cookie,
      'POST',
      '/api/static-tables/upload',
      'city,visitors\nOslo,120\n',
      'cities.csv',
    );
    const answer = ok(res as CallResult<CsvImportAnswer>, 201);
    expect(answer.mode).toBe('New');
    expect(answer.keptToken).toBeNull();
    const table = await getTable(t, cookie, answer.tableId);
    expect(table.name).toBe('cities');
    expect(await rowsByName(t, cookie, answer.tableId)).toEqual([{ city: 'Oslo', visitors: 120 }]);
    const named = await sendCsv(t, cookie, 'POST', '/api/static-tables/upload?name=Visits', 'a\n1\n');
    expect((await getTable(t, cookie, (ok(named, 201) as CsvImportAnswer).tableId)).name).toBe('Visits');
  });
});

describe('column types', () => {
  function withValues(t: TestApp, cookie: string): Promise<StaticTable> {
    return createTable(t, cookie, {
      name: 'Values',
      columns: [{ displayName: 'V', columnKey: 'v' }],
      rows: [['12'], [' 7.5 '], ['abc'], [''], [null], ['x1'], ['abc']],
    });
  }
  const values = async (t: TestApp, cookie: string, id: string) => (await getTable(t, cookie, id)).rows.map((r) => r.v);

  it('previews how many values would not convert, with examples (REST and tRPC alike)', async () => {
    const { t, cookie } = await owner();
    const table = await withValues(t, cookie);
    const viaRest = ok(
      await call(t.server, 'GET', `/api/static-tables/${table.id}/columns/v/type-preview?type=Number`, { cookie }),
    );
    expect(viaRest).toEqual({ values: 5, unconvertible: 3, examples: ['abc', 'x1'] });
    const viaTrpc = trpcOk(
      await query(t, 'staticTables.columnTypePreview', { id: table.id, columnKey: 'v', type: 'Number' }, cookie),
    );
    expect(viaTrpc).toEqual(viaRest);
  });

  it('refuses to empty values unconfirmed; confirmed, converts and empties them; Undo restores the text', async () => {
    const { t, cookie } = await owner();
    const table = await withValues(t, cookie);
    const refused = await call(t.server, 'PUT', `/api/static-tables/${table.id}/columns/v/type`, {
      cookie,
      body: { type: 'Number' },
    });
    expect(expectError(refused, 400)).toBe(
      '3 values cannot be read as Number and would become empty: confirm the change to go ahead.',
    );
    expect(await getTable(t, cookie, table.id)).toEqual(table);

    const changed = trpcOk(
      await mutation<{ keptToken: string; cleared: number }>(
        t,
        'staticTables.changeColumnType',
        { id: table.id, columnKey: 'v', type: 'Number', clearUnconvertible: true },
        cookie,
      ),
    );
    expect(changed.cleared).toBe(3);
    expect((await getTable(t, cookie, table.id)).columns[0]?.type).toBe('Number');
    expect(await values(t, cookie, table.id)).toEqual([12, 7.5, null, null, null, null, null]);

    trpcOk(await mutation(t, 'staticTables.restoreKept', { id: table.id, token: changed.keptToken }, cookie));
    const restored = await getTable(t, cookie, table.id);
    expect(restored.columns).toEqual(table.columns);
    expect(restored.rows).toEqual(table.rows);
  });

  it('text to Number changes no number: an exact decimal when a double would change one, else those count as unconvertible', async () => {
    const { t, cookie } = await owner();
    const exact = await createTable(t, cookie, {
      name: 'Exact',
      columns: [{ displayName: 'V', columnKey: 'v' }],
      rows: [['9007199254740993'], ['99999999999999.999999'], ['0.1'], ['n/a']],
    });
    const preview = async (id: string) =>
      ok(await call(t.server, 'GET', `/api/static-tables/${id}/columns/v/type-preview?type=Number`, { cookie }));
    expect(await preview(exact.id)).toEqual({ values: 4, unconvertible: 1, examples: ['n/a'] });
    const change = (id: string) =>
      call(t.server, 'PUT', `/api/static-tables/${id}/columns/v/type`, {
        cookie,
        body: { type: 'Number', clearUnconvertible: true },
      });
    expect((ok(await change(exact.id)) as { cleared: number }).cleared).toBe(1);
    // One DECIMAL(38,6) holds them all; numbers a JSON number would change arrive as their exact text.
    expect(await values(t, cookie, exact.id)).toEqual(['9007199254740993.000000', '99999999999999.999999', 0.1, null]);

    const beyond = await createTable(t, cookie, {
      name: 'Beyond',
      columns: [{ displayName: 'V', columnKey: 'v' }],
      rows: [['1.5e400'], ['123456789012345678901234567890123456789012'], ['2.5e-3'], ['7']],
    });
    expect(await preview(beyond.id)).toEqual({
      values: 4,
      unconvertible: 2,
      examples: ['1.5e400', '123456789012345678901234567890123456789012'],
    });
    expect((ok(await change(beyond.id)) as { cleared: number }).cleared).toBe(2);
    expect(await values(t, cookie, beyond.id)).toEqual([null, null, 0.0025, 7]);
  });

  it('converts text to dates, date-times and booleans, and numbers back to text', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: 'Kinds',
      columns: [
        { displayName: 'D', columnKey: 'd' },
        { displayName: 'T', columnKey: 'ts' },
        { displayName: 'B', columnKey: 'b' },
      ],
      rows: [
        ['2024-01-05', '2024-01-05 10:30:00', 'true'],
        ['5 Jan', '2024-01-06', 'no way'],
      ],
    });
    const change = (columnKey: string, type: string) =>
      call(t.server, 'PUT', `/api/static-tables/${table.id}/columns/${columnKey}/type`, {
        cookie,
        body: { type, clearUnconvertible: true },
      });
    expect((ok(await change('d', 'Date')) as { cleared: number }).cleared).toBe(1);
    expect((ok(await change('ts', 'DateTime')) as { cleared: number }).cleared).toBe(0);
    expect((ok(await change('b', 'Boolean')) as { cleared: number }).cleared).toBe(1);
    const typed = await getTable(t, cookie, table.id);
    expect(typed.columns.map((c) => c.type)).toEqual(['Date', 'DateTime', 'Boolean']);
    expect(typed.rows.map(({ d, b }) => [d, b])).toEqual([
      ['2024-01-05', true],
      [null, null],
    ]);
    expect(String(typed.rows[1]?.ts)).toContain('2024-01-06');
    ok(await change('d', 'Text'));
    expect((await getTable(t, cookie, table.id)).rows[0]?.d).toBe('2024-01-05');
  });

  it('reads text with an offset as its instant, and a time of day or nanoseconds as no date or time of the type', async () => {
    const { t, cookie } = await owner();
    const rows = [
      ['2024-01-05', '2024-01-05T10:30:00+02:00', '2024-01-05 10:30:00.123456789'],
      ['2024-01-06 09:15', '2024-01-06 09:15', '2024-01-05 10:30:00.123456000'],
      ['2024-01-07T00:00:00Z', '2024-01-07T23:00:00-05:00', '2024-01-05'],
    ];
    const table = await createTable(t, cookie, {
      name: 'Times',
      columns: [
        { displayName: 'D', columnKey: 'd' },
        { displayName: 'T', columnKey: 'ts' },
        { displayName: 'N', columnKey: 'n' },
      ],
      rows,
    });
    const change = (columnKey: string, type: string, clearUnconvertible: boolean) =>
      call(t.server, 'PUT', `/api/static-tables/${table.id}/columns/${columnKey}/type`, {
        cookie,
        body: { type, clearUnconvertible },
      });
    // DuckDB's cast to DATE kept 2024-01-06 of the second and said nothing; it is now not a date.
    const preview = ok(
      await call(t.server, 'GET', `/api/static-tables/${table.id}/columns/d/type-preview?type=Date`, { cookie }),
    );
    expect(preview).toEqual({ values: 3, unconvertible: 1, examples: ['2024-01-06 09:15'] });
    ok(await change('d', 'Date', true));
    ok(await change('ts', 'DateTime', false));
    // DuckDB's cast kept .123456 of nanoseconds; they are now no date and time of this column.
    const nanos = ok(
      await call(t.server, 'GET', `/api/static-tables/${table.id}/columns/n/type-preview?type=DateTime`, { cookie }),
    );
    expect(nanos).toEqual({ values: 3, unconvertible: 1, examples: ['2024-01-05 10:30:00.123456789'] });
    // A date and time other than midnight is no date either (DuckDB's cast kept the day).
    ok(await change('n', 'DateTime', true));
    const days = ok(
      await call(t.server, 'GET', `/api/static-tables/${table.id}/columns/n/type-preview?type=Date`, { cookie }),
    );
    expect(days).toEqual({ values: 2, unconvertible: 1, examples: ['2024-01-05 10:30:00.123456'] });
    ok(await change('n', 'Date', true));
    expect(await rowsByName(t, cookie, table.id)).toEqual([
      { D: '2024-01-05', T: '2024-01-05T08:30:00.000Z', N: null },
      { D: null, T: '2024-01-06T09:15:00.000Z', N: null },
      { D: '2024-01-07', T: '2024-01-08T04:00:00.000Z', N: '2024-01-05' },
    ]);
  });

  it('saves a number format with the column; a type other than Number drops it', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: 'Money',
      columns: [{ displayName: 'Amount', columnKey: 'amount' }],
    });
    const format = {
      multiplyBy: null,
      style: 'Number',
      thousandSeparator: true,
      decimalPlaces: 2,
      prefix: '$',
      suffix: '',
    };
    ok(
      await call(t.server, 'POST', `/api/static-tables/${table.id}/changes`, {
        cookie,
        body: { changes: [{ kind: 'updateColumn', columnKey: 'amount', format }] },
      }),
    );
    expect((await getTable(t, cookie, table.id)).columns[0]?.format).toEqual(format);
    ok(
      await call(t.server, 'PUT', `/api/static-tables/${table.id}/columns/amount/type`, {
        cookie,
        body: { type: 'Date' },
      }),
    );
    expect((await getTable(t, cookie, table.id)).columns[0]).not.toHaveProperty('format');
  });
});

describe('read_only members', () => {
  it('get 403 for previews, imports, restores, type and format changes, and nothing changes', async () => {
    const { t, team } = await appWithTeam();
    const table = await people(t, team.owner.cookie);
    const answer = ok(await uploadCsv(t, team.owner.cookie, table.id, 'Name\nZed\n')) as CsvImportAnswer;
    const before = await getTable(t, team.owner.cookie, table.id);
    const { cookie } = team.readOnly;
    const key = keyOf(before, 'Name');
    const format = {
      multiplyBy: null,
      style: 'Percent',
      thousandSeparator: true,
      decimalPlaces: 1,
      prefix: '',
      suffix: '',
    };
    const writes: [string, () => Promise<CallResult>][] = [
      ['preview (REST)', () => sendCsv(t, cookie, 'POST', `/api/static-tables/${table.id}/upload/preview`, 'a\n1\n')],
      ['preview (tRPC)', () => mutation(t, 'staticTables.importPreview', { id: table.id, head: 'a\n1\n' }, cookie)],
      ['append', () => sendCsv(t, cookie, 'PUT', `/api/static-tables/${table.id}/upload?mode=Append`, 'Name\nEve\n')],
      ['new table', () => sendCsv(t, cookie, 'POST', '/api/static-tables/upload', 'a\n1\n')],
      [
        'restore (REST)',
        () =>
          call(t.server, 'POST', `/api/static-tables/${table.id}/restore-kept`, {
            cookie,
            body: { token: answer.keptToken },
          }),
      ],
      [
        'restore (tRPC)',
        () => mutation(t, 'staticTables.restoreKept', { id: table.id, token: answer.keptToken }, cookie),
      ],
      [
        'type (REST)',
        () =>
          call(t.server, 'PUT', `/api/static-tables/${table.id}/columns/${key}/type`, {
            cookie,
            body: { type: 'Number' },
          }),
      ],
      [
        'type (tRPC)',
        () => mutation(t, 'staticTables.changeColumnType', { id: table.id, columnKey: key, type: 'Number' }, cookie),
      ],
      [
        'format',
        () =>
          call(t.server, 'POST', `/api/static-tables/${table.id}/changes`, {
            cookie,
            body: { changes: [{ kind: 'updateColumn', columnKey: key, format }] },
          }),
      ],
    ];
    for (const [name, send] of writes) {
      const res = await send();
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(JSON.stringify(res.body), name).toContain('Your role in this account is read only.');
    }
    expect(await getTable(t, team.owner.cookie, table.id)).toEqual(before);
    expect(await uploadFiles(t, cookie)).toEqual([]);
    expect(ok(await call<{ count: number }>(t.server, 'GET', '/api/static-tables', { cookie })).count).toBe(1);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestDuckDb } from '../../engine/duckdb';
import { call, expectError, makeApp, signIn, type TestApp } from '../helpers';
import { createTable, tableFromCsv, type Row } from '../static-tables/helpers';

async function owner() {
  const t = await makeApp();
  return { t, cookie: await signIn(t, 'owner@example.com') };
}

function download(t: TestApp, cookie: string, id: string, query = '') {
  return call<string>(t.server, 'GET', `/api/tables/StaticTable/${id}/download${query}`, { cookie });
}

/** Rows of a Parquet file, read back by a DuckDB of the test's own (the account's warehouse may not read files). */
async function readParquet(t: TestApp, bytes: Buffer): Promise<Row[]> {
  const file = path.join(t.dataDir, 'downloaded.parquet');
  fs.writeFileSync(file, bytes);
  const duckdb = await openTestDuckDb();
  try {
    return await duckdb.all({ sql: 'SELECT * FROM read_parquet($1)', parameters: [file] });
  } finally {
    duckdb.close();
  }
}

describe('GET /api/tables/StaticTable/{id}/download', () => {
  it('streams CSV with display names as headers, rows in row order, quoting where needed', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: 'Q1 sales: "final"/v2',
      columns: [{ displayName: 'Region' }, { displayName: 'Note, with comma' }],
      rows: [
        ['North', 'plain'],
        ['South', 'has "quotes", and a comma'],
        ['East', null],
      ],
    });
    for (const query of ['?format=csv', '']) {
      const res = await download(t, cookie, table.id, query);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="Q1 sales_ _final_v2.csv"; filename*=UTF-8''Q1%20sales_%20_final_v2.csv`,
      );
      expect(res.body).toBe('Region,"Note, with comma"\nNorth,plain\nSouth,"has ""quotes"", and a comma"\nEast,\n');
    }
  });

  it('writes typed values of an imported CSV', async () => {
    const { t, cookie } = await owner();
    const table = await tableFromCsv(t, cookie, 'Name,Amount,Day\nAlpha,10,2024-01-05\nbeta,,2024-02-10\n', 'Typed');
    const res = await download(t, cookie, table.id, '?format=csv');
    expect(res.body).toBe('Name,Amount,Day\nAlpha,10,2024-01-05\nbeta,,2024-02-10\n');
  });

  it('streams Parquet that DuckDB reads back', async () => {
    const { t, cookie } = await owner();
    const table = await tableFromCsv(t, cookie, 'Name,Amount\nAlpha,1.5\nbeta,\n', 'Numbers');
    const res = await download(t, cookie, table.id, '?format=parquet');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apache.parquet');
    expect(res.headers['content-disposition']).toContain('filename="Numbers.parquet"');
    const bytes = res.raw.rawPayload;
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
    expect(bytes.subarray(-4).toString('latin1')).toBe('PAR1');
    expect(await readParquet(t, bytes)).toEqual([
      { Name: 'Alpha', Amount: 1.5 },
      { Name: 'beta', Amount: null },
    ]);
  });

  it('writes the header alone for a table without rows', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: 'Empty',
      columns: [{ displayName: 'A' }, { displayName: 'B' }],
    });
    expect((await download(t, cookie, table.id)).body).toBe('A,B\n');
  });

  it('refuses an unknown format with 400 and a missing table with 404', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'T', columns: [{ displayName: 'A' }] });
    expectError(await download(t, cookie, table.id, '?format=xlsx'), 400);
    expect(expectError(await download(t, cookie, 'missing'), 404)).toBe('Table not found.');
    expectError(await call(t.server, 'GET', `/api/tables/StaticTable/${table.id}/download`), 401);
  });
});

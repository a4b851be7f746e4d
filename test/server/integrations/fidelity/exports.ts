/**
 * A synced dataset read back three ways, for the fidelity tests: the tables API (JSON values), the
 * CSV download and the Parquet download (each read with a DuckDB of the test's own). Download
 * values come back as DuckDB's text of each cell (lists and JSON as JSON text), rows by `_order`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Paged, TableSummary } from '../../../../src/shared/tables';
import { openTestDuckDb } from '../../../engine/duckdb';
import type { TestApp } from '../../helpers';
import { api, ok } from '../helpers';

export type Row = Record<string, unknown>;

/** Every row through the tables API, sorted by `orderBy` ascending. */
export async function apiRows(t: TestApp, cookie: string, datasetId: string, orderBy: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const answer = ok(
      await api<Paged<Row>>(t, cookie, 'POST', `/api/tables/IntegrationDataset/${datasetId}/data/infinite-scroll`, {
        page,
        pageSize: 500,
        sorting: [{ columnKey: orderBy, direction: 'Ascending' }],
      }),
    );
    rows.push(...answer.data);
    if (!answer.hasMore) return rows;
  }
}

export async function tableOf(t: TestApp, cookie: string, datasetId: string): Promise<TableSummary> {
  return ok(await api<TableSummary>(t, cookie, 'GET', `/api/tables/IntegrationDataset/${datasetId}`));
}

/**
 * The dataset's download in `format`, each cell as DuckDB's text (nested values as JSON), rows by
 * `orderBy` (the download follows the sort asked for). `types` casts CSV text back to each
 * column's warehouse type first, so both formats print the same way.
 */
export async function downloadRows(
  t: TestApp,
  cookie: string,
  datasetId: string,
  format: 'csv' | 'parquet',
  orderBy: string,
  types: Record<string, string>,
): Promise<Row[]> {
  const sorting = encodeURIComponent(JSON.stringify([{ columnKey: orderBy, direction: 'Ascending' }]));
  const answer = await api<string>(
    t,
    cookie,
    'GET',
    `/api/tables/IntegrationDataset/${datasetId}/download?format=${format}&sorting=${sorting}`,
  );
  expect(answer.status, String(answer.raw.body).slice(0, 300)).toBe(200);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fidelity-'));
  const file = path.join(dir, `export.${format}`);
  await writeFile(file, answer.raw.rawPayload);
  const db = await openTestDuckDb();
  try {
    const source =
      format === 'csv'
        ? // The download's own dialect: a sniffed one would take a ';' in every value for the delimiter.
          `read_csv('${file}', header = true, all_varchar = true, allow_quoted_nulls = false, delim = ',', quote = '"', ` +
          `escape = '"', max_line_size = 100000000, buffer_size = 100000000)`
        : `read_parquet('${file}')`;
    const names = Object.keys(types);
    const cells = names.map((name) => {
      const ref = `"${name.replaceAll('"', '""')}"`;
      // The CSV download writes BLOBs as base64, intervals and times with a zone as the grid's text
      // (an ISO 8601 duration, which DuckDB's cast cannot read back, and a full offset).
      const typed =
        format !== 'csv' || ['VARCHAR', 'INTERVAL', 'TIME WITH TIME ZONE'].includes(types[name] ?? '')
          ? ref
          : types[name] === 'BLOB'
            ? `from_base64(${ref})`
            : `CAST(${ref} AS ${types[name]})`;
      // Lists as JSON; JSON as its own text (to_json would print its numbers through doubles).
      const nested = /\]$|^STRUCT/.test(types[name] ?? '');
      return `${nested ? `CAST(to_json(${typed}) AS VARCHAR)` : `CAST(${typed} AS VARCHAR)`} AS ${ref}`;
    });
    return await db.rows(`SELECT ${cells.join(', ')} FROM ${source}`);
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The warehouse types of a dataset's table, read straight from DuckDB. */
export async function warehouseTypes(
  t: TestApp,
  accountId: string,
  schema: string,
  table: string,
): Promise<Record<string, string>> {
  const rows = await t.deps.warehouse.forAccount(accountId).all({
    sql: 'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
    parameters: [schema, table],
  });
  return Object.fromEntries(rows.filter((r) => r.column_name !== '_row_id').map((r) => [r.column_name, r.data_type]));
}

/**
 * What the crash suite compares: every table the account lists, downloaded whole through the real
 * server and hashed; and, with the server stopped, both stores opened directly to check they agree
 * (no relation without metadata, no metadata without a relation, nothing half made left behind).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DuckDBInstance } from '@duckdb/node-api';
import { expect } from 'vitest';
import { modelViewName } from '../../src/server/modules/models/sources';
import { warehouseTableName } from '../../src/server/modules/static-tables/physical';
import { sha256, type Client } from './client';

export interface TableState {
  name: string;
  columns: string[];
  rows: number;
  checksum: string;
}

/** `<type>:<id>` → what the table holds, as a user would download it. */
export type Snapshot = Record<string, TableState>;

interface TableSummary {
  id: string;
  type: string;
  name: string;
  columns: { displayName: string }[];
}

/** Every listed table, downloaded as CSV through the server; each must answer. */
export async function snapshot(client: Client): Promise<Snapshot> {
  const tables = await client.ok<TableSummary[]>('GET', '/api/tables');
  const result: Snapshot = {};
  for (const table of tables) {
    const csv = await client.ok<string>('GET', `/api/tables/${table.type}/${table.id}/download?format=csv`);
    const lines = csv.split('\n').filter((line) => line !== '');
    const { totalCount } = await client.ok<{ totalCount: number }>(
      'POST',
      `/api/tables/${table.type}/${table.id}/data/count`,
      {},
    );
    // The columns the metadata store lists are the columns the warehouse has, and the count agrees.
    expect(lines[0]?.replace(/^\uFEFF/, '').split(','), `${table.name}: header`).toEqual(
      table.columns.map((c) => c.displayName),
    );
    expect(totalCount, `${table.name}: count`).toBe(lines.length - 1);
    result[`${table.type}:${table.id}`] = {
      name: table.name,
      columns: table.columns.map((c) => c.displayName),
      rows: lines.length - 1,
      checksum: sha256(lines.slice(1).sort().join('\n')),
    };
  }
  return result;
}

async function warehouseCatalog(file: string) {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const read = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson();
    const tables = await read(
      'SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database()',
    );
    const views = await read(
      'SELECT schema_name, view_name FROM duckdb_views() WHERE database_name = current_database() AND NOT internal',
    );
    const markers = await read('SELECT count(*)::INTEGER AS n FROM _workspace.writes');
    return {
      tables: tables.map((r) => `${String(r.schema_name)}.${String(r.table_name)}`),
      views: views.map((r) => `${String(r.schema_name)}.${String(r.view_name)}`),
      markers: Number(markers[0]?.n ?? 0),
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * With the server stopped: the warehouse file opens on its own (its log replays), and holds exactly
 * the relations the metadata store knows of — no staging tables, no copies, no orphans — and no
 * write is left half settled in either store. Work folders hold nothing.
 */
export async function expectStoresAgree(dataDir: string): Promise<void> {
  const db = new Database(path.join(dataDir, 'app.db'), { readonly: true });
  try {
    const accounts = db.prepare('SELECT id FROM accounts').all() as { id: string }[];
    expect(db.prepare('SELECT count(*) AS n FROM warehouse_writes').get()).toEqual({ n: 0 });
    for (const { id: accountId } of accounts) {
      const folder = path.join(dataDir, 'accounts', accountId);
      const file = path.join(folder, 'warehouse.duckdb');
      if (!fs.existsSync(file)) continue;
      const catalog = await warehouseCatalog(file);
      expect(catalog.markers, 'write markers left in the warehouse').toBe(0);

      const staticIds = db.prepare('SELECT id, kept_token FROM static_tables WHERE account_id = ?').all(accountId) as {
        id: string;
        kept_token: string | null;
      }[];
      const datasets = db
        .prepare(
          `SELECT i.schema_name, d.table_name FROM integration_datasets d JOIN integrations i ON i.id = d.integration_id
           WHERE i.account_id = ? AND d.last_synced_at IS NOT NULL`,
        )
        .all(accountId) as { schema_name: string; table_name: string }[];
      const expectedTables = [
        ...staticIds.map((r) => `static.${warehouseTableName(r.id)}`),
        // The copy an import keeps for Undo while the metadata names it (kept-copy.ts).
        ...staticIds.filter((r) => r.kept_token !== null).map((r) => `static.${warehouseTableName(r.id)}__kept`),
        ...datasets.map((d) => `${d.schema_name}.${d.table_name}`),
        '_workspace.writes',
      ].sort();
      expect(catalog.tables.sort(), 'warehouse tables').toEqual(expectedTables);

      const published = db
        .prepare(
          `SELECT v.id FROM model_versions v JOIN models m ON m.id = v.model_id
           WHERE m.account_id = ? AND v.status IN ('Active', 'Inactive')`,
        )
        .all(accountId) as { id: string }[];
      expect(catalog.views.sort(), 'model views').toEqual(published.map((v) => `model.${modelViewName(v.id)}`).sort());

      for (const work of ['uploads', 'scratch', 'tmp']) {
        const dir = path.join(folder, work);
        const left = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }) : [];
        expect(left, `${work} folder of ${accountId}`).toEqual([]);
      }
    }
  } finally {
    db.close();
  }
}

/**
 * The warehouse's half of a write that changes both stores (src/server/durability/write-journal.ts):
 * a marker row committed in the same DuckDB transaction as the data, holding what the metadata store
 * must record. After a crash, a marker says the data changed and what to record; no marker says the
 * data did not change.
 */
import type { WarehouseSession } from './types';

export const WRITES_SCHEMA = '_workspace';
const WRITES_TABLE = `${WRITES_SCHEMA}.writes`;

/** Made when an instance opens (idempotent). No key: ids are random, and DuckDB's indexes only cost here. */
export const WRITES_TABLE_DDL =
  `CREATE SCHEMA IF NOT EXISTS ${WRITES_SCHEMA};\n` +
  `CREATE TABLE IF NOT EXISTS ${WRITES_TABLE} (id VARCHAR NOT NULL, kind VARCHAR NOT NULL, payload VARCHAR NOT NULL)`;

export interface WriteMarker {
  id: string;
  kind: string;
  payload: unknown;
}

/** Inside the write's own transaction. */
export async function markWrite(session: WarehouseSession, marker: WriteMarker): Promise<void> {
  await session.run(`INSERT INTO ${WRITES_TABLE} VALUES ($1, $2, $3)`, [
    marker.id,
    marker.kind,
    JSON.stringify(marker.payload),
  ]);
}

export async function readMarkers(session: WarehouseSession): Promise<WriteMarker[]> {
  const rows = await session.all({ sql: `SELECT id, kind, payload FROM ${WRITES_TABLE}`, parameters: [] });
  return rows.map((row) => ({ id: String(row.id), kind: String(row.kind), payload: JSON.parse(String(row.payload)) }));
}

export async function clearMarkers(session: WarehouseSession, ids: readonly string[]): Promise<void> {
  for (const id of ids) await session.run(`DELETE FROM ${WRITES_TABLE} WHERE id = $1`, [id]);
}

/**
 * Warehouse tables of a sync: its schema, the staging table's life (created with the stored type
 * of every column, dropped), and the description of a table as the tables API shows it.
 */
import { randomBytes } from 'node:crypto';
import type { WarehouseExecutor, WarehouseSession } from '../../../warehouse/types';
import type { Column } from '../../../../shared/tables';
import type { LogLevel } from '../connectors/types';
import { duckDbType } from '../connectors/formats';
import { ROW_ID, STAGING_PREFIX, q, quoteQualified } from '../physical';
import type { StagedColumn, Staging } from './types';

export async function ensureSchema(executor: WarehouseExecutor, schema: string): Promise<void> {
  await executor.exclusive(`schema:${schema}`, () => executor.run(`CREATE SCHEMA IF NOT EXISTS ${q(schema)}`));
}

export async function tableExists(session: WarehouseSession, schema: string, table: string): Promise<boolean> {
  const rows = await session.all({
    sql: 'SELECT 1 AS found FROM duckdb_tables() WHERE schema_name = $1 AND table_name = $2',
    parameters: [schema, table],
  });
  return rows.length > 0;
}

/** An empty staging table with the stored type of every column, plus `_row_id`. */
export async function createStaging(
  executor: WarehouseExecutor,
  schema: string,
  table: string,
  columns: StagedColumn[],
  log: (level: LogLevel, message: string) => void = () => undefined,
): Promise<Staging> {
  const name = `${STAGING_PREFIX}${table}_${randomBytes(4).toString('hex')}`;
  const defs = [`${q(ROW_ID)} BIGINT`, ...columns.map((c) => `${q(c.name)} ${duckDbType(c.format)}`)];
  await executor.exclusive(`table:${schema}.${name}`, () =>
    executor.run(`CREATE TABLE ${quoteQualified(schema, name)} (${defs.join(', ')})`),
  );
  // Copies: widening a column changes its format for the rest of this sync only.
  return {
    schema,
    name,
    columns: columns.map((c) => ({ ...c })),
    rows: 0,
    bytes: 0,
    notices: new Map(),
    log,
  };
}

export async function dropStaging(executor: WarehouseExecutor, staging: Staging): Promise<void> {
  await executor.exclusive(`table:${staging.schema}.${staging.name}`, () =>
    executor.run(`DROP TABLE IF EXISTS ${quoteQualified(staging.schema, staging.name)}`),
  );
}

/** Runs `work` holding the staging table's lock (every change to its rows or columns does). */
export const onStaging = <T>(executor: WarehouseExecutor, staging: Staging, work: () => Promise<T>) =>
  executor.exclusive(`table:${staging.schema}.${staging.name}`, work);

/** The table's columns (without `_row_id`) as the tables API shows them, and its row count. */
export async function describeTable(
  session: WarehouseSession,
  schema: string,
  table: string,
): Promise<{ columns: Column[]; rowCount: number }> {
  const target = quoteQualified(schema, table);
  const result = await session.query({ sql: `SELECT * FROM ${target} LIMIT 0`, parameters: [] });
  const [count] = await session.all({ sql: `SELECT count(*)::DOUBLE AS n FROM ${target}`, parameters: [] });
  const columns = result.columns
    .filter((c) => c.name !== ROW_ID)
    .map((c, order) => ({ columnKey: c.name, displayName: c.name, description: null, order, type: c.type }));
  return { columns, rowCount: Number(count?.n ?? 0) };
}

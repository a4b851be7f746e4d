/**
 * Loading a dataset's rows into the warehouse. Every sync writes a staging table first (record
 * batches through JSON files, files read by DuckDB as they are) and swaps it in only when the read
 * succeeded, so a failed sync leaves the dataset's previous rows as they were.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { IngestionType } from '../../../shared/integrations';
import { LIMITS } from '../../../shared/limits';
import type { Column, ColumnType } from '../../../shared/tables';
import { quoteString } from '../../warehouse/quote';
import { swapTable } from '../../warehouse/swap-table';
import type { WarehouseExecutor, WarehouseSession } from '../../warehouse/types';
import { ConnectorError } from './connectors/types';
import { ROW_ID, STAGING_PREFIX, q, quoteQualified, storedType } from './physical';
import { crashPoint } from '../../durability/crash-points';

export interface StagedColumn {
  name: string;
  type: ColumnType;
}

export interface Staging {
  schema: string;
  name: string;
  columns: StagedColumn[];
  /** Rows written so far. */
  rows: number;
  bytes: number;
}

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
): Promise<Staging> {
  const name = `${STAGING_PREFIX}${table}_${randomBytes(4).toString('hex')}`;
  const defs = [`${q(ROW_ID)} BIGINT`, ...columns.map((c) => `${q(c.name)} ${storedType(c.type)}`)];
  await executor.exclusive(`table:${schema}.${name}`, () =>
    executor.run(`CREATE TABLE ${quoteQualified(schema, name)} (${defs.join(', ')})`),
  );
  return { schema, name, columns, rows: 0, bytes: 0 };
}

export async function dropStaging(executor: WarehouseExecutor, staging: Staging): Promise<void> {
  await executor.exclusive(`table:${staging.schema}.${staging.name}`, () =>
    executor.run(`DROP TABLE IF EXISTS ${quoteQualified(staging.schema, staging.name)}`),
  );
}

/** `{'name': 'TYPE', ...}` for read_json: property names are source data, quoted as SQL strings. */
function jsonColumnsArgument(columns: StagedColumn[]): string {
  return `{${columns.map((c) => `${quoteString(c.name)}: ${quoteString(storedType(c.type))}`).join(', ')}}`;
}

/**
 * DuckDB names a record that does not fit its column by the scratch file and a position within its
 * read buffer, which means nothing to the user; the problem itself (the value, the type) does.
 */
function unfitRecordError(error: unknown): ConnectorError | null {
  const message = error instanceof Error ? error.message : String(error);
  const match = /JSON transform error in file "[^"]*", in record\/value \d+: ([^\n]*)/.exec(message);
  if (!match) return null;
  return new ConnectorError(
    `A record does not fit the dataset's columns: ${match[1]}. If the source changed its types, refresh the datasets.`,
    'SystemError',
  );
}

async function insertInto(executor: WarehouseExecutor, staging: Staging, select: string, file: string) {
  const target = quoteQualified(staging.schema, staging.name);
  const changed = await executor
    .exclusive(`table:${staging.schema}.${staging.name}`, () =>
      executor.run(`INSERT INTO ${target} BY NAME SELECT ${select}`, [file]),
    )
    .catch((error: unknown) => {
      throw unfitRecordError(error) ?? error;
    });
  staging.rows += changed;
  staging.bytes += (await fs.promises.stat(file)).size;
  return changed;
}

/** Appends records (only the staged columns are kept) through a JSON array file in `tempDir`. */
export async function stageRecords(
  executor: WarehouseExecutor,
  staging: Staging,
  records: Record<string, unknown>[],
  tempDir: string,
): Promise<number> {
  if (records.length === 0 || staging.columns.length === 0) return 0;
  const file = path.join(tempDir, `batch-${randomBytes(6).toString('hex')}.json`);
  const kept = records.map((record) => {
    const values: Record<string, unknown> = {};
    for (const column of staging.columns)
      if (record[column.name] !== undefined) values[column.name] = record[column.name];
    return values;
  });
  // One stringify of the whole batch: a call per record (and joining the lines) costs twice as much.
  await fs.promises.writeFile(file, JSON.stringify(kept));
  try {
    const names = staging.columns.map((c) => q(c.name)).join(', ');
    const source = `read_json($1, format = 'array', columns = ${jsonColumnsArgument(staging.columns)})`;
    return await insertInto(executor, staging, `${names} FROM ${source}`, file);
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}

/** Appends a file a connector handed over, cast by column name to the staged types (missing ones stay NULL). */
export async function stageFile(
  executor: WarehouseExecutor,
  staging: Staging,
  file: { path: string; format: 'csv' | 'jsonl' | 'parquet' },
): Promise<number> {
  if (file.format === 'jsonl') {
    const names = staging.columns.map((c) => q(c.name)).join(', ');
    const source = `read_json($1, format = 'newline_delimited', columns = ${jsonColumnsArgument(staging.columns)})`;
    return insertInto(executor, staging, `${names} FROM ${source}`, file.path);
  }
  const source = file.format === 'csv' ? `read_csv($1, header = true, all_varchar = true)` : `read_parquet($1)`;
  const described = await executor.query({ sql: `SELECT * FROM ${source} LIMIT 0`, parameters: [file.path] });
  const present = new Set(described.columns.map((c) => c.name));
  const select = staging.columns
    .filter((c) => present.has(c.name))
    .map((c) => `CAST(${q(c.name)} AS ${storedType(c.type)}) AS ${q(c.name)}`);
  if (select.length === 0) return 0;
  return insertInto(executor, staging, `${select.join(', ')} FROM ${source}`, file.path);
}

export interface SwapOptions {
  table: string;
  ingestion: IngestionType;
  primaryKey: string[];
  cursorField: string | null;
}

/**
 * Makes the staged rows the dataset's (Overwrite replaces the table; Append adds the rows, with new
 * columns; AppendDedup then keeps the newest row per primary key, by cursor then arrival). One
 * transaction, in which `alongside` also runs with the table as it will be: on failure the table is
 * as before. The caller holds `exclusive` of the table and of the staging table.
 */
export async function swapIn<T>(
  executor: WarehouseExecutor,
  staging: Staging,
  options: SwapOptions,
  alongside: (tx: WarehouseSession, table: { columns: Column[]; rowCount: number }) => Promise<T>,
): Promise<T> {
  const { schema } = staging;
  const target = quoteQualified(schema, options.table);
  const staged = quoteQualified(schema, staging.name);
  // Batches were appended (and committed) in the order they were read, and rowid follows insertion
  // order: numbering here spares every batch a row_number() window, which would make DuckDB's
  // parallel readers hand their rows over in order. Committed on its own, before the swap renames the
  // table (see swap-table.ts); a crash in between leaves only a staging table, swept at start.
  await executor.run(`UPDATE ${staged} SET ${q(ROW_ID)} = rowid + 1`);
  crashPoint('sync:rows-numbered');
  const describedInside = async (tx: WarehouseSession) => alongside(tx, await describeTable(tx, schema, options.table));
  if (options.ingestion === 'Overwrite' || !(await tableExists(executor, schema, options.table))) {
    return swapTable(executor, schema, staging.name, options.table, describedInside);
  }
  return executor.transaction(async (tx) => {
    const current = await tx.query({ sql: `SELECT * FROM ${target} LIMIT 0`, parameters: [] });
    const have = new Set(current.columns.map((c) => c.name));
    const added = staging.columns.filter((column) => !have.has(column.name));
    refuseWideAppend(current.columns.length - (have.has(ROW_ID) ? 1 : 0), added.length, options.table);
    for (const column of added) {
      await tx.run(`ALTER TABLE ${target} ADD COLUMN ${q(column.name)} ${storedType(column.type)}`);
    }
    await tx.run(
      `INSERT INTO ${target} BY NAME SELECT * REPLACE (${q(ROW_ID)} + ` +
        `(SELECT coalesce(max(${q(ROW_ID)}), 0) FROM ${target}) AS ${q(ROW_ID)}) FROM ${staged}`,
    );
    await tx.run(`DROP TABLE ${staged}`);
    if (options.ingestion === 'AppendDedup' && options.primaryKey.length > 0) {
      const order = [
        ...(options.cursorField ? [`${q(options.cursorField)} DESC NULLS LAST`] : []),
        `${q(ROW_ID)} DESC`,
      ];
      await tx.run(
        `DELETE FROM ${target} WHERE ${q(ROW_ID)} IN (SELECT ${q(ROW_ID)} FROM (SELECT ${q(ROW_ID)}, ` +
          `row_number() OVER (PARTITION BY ${options.primaryKey.map(q).join(', ')} ORDER BY ${order.join(', ')}) AS rn ` +
          `FROM ${target}) WHERE rn > 1)`,
      );
    }
    return describedInside(tx);
  });
}

/** An append may add columns, but never past the column limit: the dataset stays as it was. */
function refuseWideAppend(existing: number, added: number, table: string): void {
  if (existing + added <= LIMITS.maxColumns) return;
  throw new ConnectorError(
    `The sync would add ${added} columns to the ${existing} of ${table}; a dataset can have at most ` +
      `${LIMITS.maxColumns} columns. Choose fewer properties in Dataset settings, or refresh all data to replace the table.`,
    'ConfigError',
  );
}

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

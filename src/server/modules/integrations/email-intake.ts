/**
 * Incoming e-mail: each attachment sent to an integration's address becomes (or replaces) the
 * dataset named after the file. CSV, JSON (an array or JSON lines) and Parquet are read by DuckDB;
 * the listener converts XML and Avro to JSON lines first. Other files are logged and ignored. Every
 * attachment is a run of its own, so the activity log shows what arrived.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../../../shared/limits';
import type { Deps } from '../../context';
import { inspectCsvFile } from '../../warehouse/csv-file';
import { exclusiveAll } from '../../warehouse/exclusive-all';
import { swapTable } from '../../warehouse/swap-table';
import type { WarehouseExecutor } from '../../warehouse/types';
import { PUSH_ARRIVED } from './durable-writes';
import { datasetTableName, q, quoteQualified, ROW_ID, STAGING_PREFIX } from './physical';
import type { PushArrival } from './push-datasets';
import { listDatasetRows, type IntegrationRow } from './repo';
import { appendLog, createRun, finishRun, startAttempt } from './run-records';
import { describeTable, ensureSchema } from './staging';

export interface IncomingAttachment {
  /** The recipient, e.g. `shop.1a2b3c4d@in.example.com`, or its local part. */
  address: string;
  fileName: string;
  contentType: string;
  /** Where the listener saved the file (JSON lines for converted XML and Avro). */
  path: string;
  /** How to read the file, when the listener knows (else from the extension). */
  format?: 'csv' | 'jsonl' | 'parquet';
  /** The dataset it feeds, when the listener chose (else the file name without extension). */
  datasetName?: string;
}

/** The local part of an address, lowercased: what integrations are found by. */
export const localPartOf = (address: string) =>
  address
    .trim()
    .toLowerCase()
    .replace(/@[^@]*$/, '');

export type IntakeResult = { stored: true; dataset: string; rows: number } | { stored: false; reason: string };

const READERS: Record<string, string> = {
  '.csv': 'read_csv($1, header = true)',
  '.json': "read_json($1, format = 'auto', maximum_depth = 2)",
  '.jsonl': "read_json($1, format = 'newline_delimited', maximum_depth = 2)",
  '.ndjson': "read_json($1, format = 'newline_delimited', maximum_depth = 2)",
  '.parquet': 'read_parquet($1)',
};

/** The dataset a file feeds: its name without the extension. */
export function datasetNameOf(fileName: string): string {
  const base = path
    .basename(fileName)
    .replace(/\.[^.]+$/, '')
    .trim();
  return base || 'attachment';
}

export async function ingestAttachment(deps: Deps, attachment: IncomingAttachment): Promise<IntakeResult> {
  const { db, clock } = deps;
  const integration = await db
    .selectFrom('integrations')
    .selectAll()
    .where('email_address', '=', localPartOf(attachment.address))
    .executeTakeFirst();
  if (!integration) return { stored: false, reason: `No integration receives mail at ${attachment.address}.` };

  const runId = await createRun(db, integration.id, 'Sync', null, clock());
  const attemptId = await startAttempt(db, runId, [], clock());
  const log = (level: 'INFO' | 'WARN' | 'ERROR', message: string) => appendLog(db, runId, level, message, clock());
  const reader =
    READERS[path.extname(attachment.path).toLowerCase()] ?? READERS[path.extname(attachment.fileName).toLowerCase()];
  if (!reader) {
    await log(
      'WARN',
      `Ignored ${attachment.fileName} (${attachment.contentType}): only CSV, JSON, XML, Parquet and Avro files are loaded.`,
    );
    await finishRun(db, runId, attemptId, 'Completed', clock());
    return { stored: false, reason: 'Unsupported file type.' };
  }
  const dataset = attachment.datasetName?.trim() || datasetNameOf(attachment.fileName);
  try {
    const rows = await replaceDataset(deps, integration, runId, dataset, reader, attachment.path);
    await log('INFO', `${attachment.fileName}: ${rows} row(s) loaded into ${dataset}.`);
    await finishRun(db, runId, attemptId, 'Completed', clock());
    return { stored: true, dataset, rows };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    await log(
      'ERROR',
      `${attachment.fileName}: could not be loaded: ${message} The dataset's previous data is unchanged.`,
    );
    await finishRun(db, runId, attemptId, 'Failed', clock());
    return { stored: false, reason: message ?? 'Failed' };
  }
}

/**
 * The file's rows replace the dataset's table (types detected by DuckDB): read into a staging table
 * first, then swapped in with the dataset's metadata (durable-writes.ts). The file is moved into the
 * account's scratch folder first: the only place its warehouse reads files from.
 */
async function replaceDataset(
  deps: Deps,
  integration: IntegrationRow,
  runId: string,
  dataset: string,
  reader: string,
  received: string,
): Promise<number> {
  const schema = integration.schema_name;
  const datasets = await listDatasetRows(deps.db, integration.id);
  const table =
    datasets.find((d) => d.name === dataset)?.table_name ??
    datasetTableName(dataset, new Set(datasets.map((d) => d.table_name)));
  const executor = deps.warehouse.forAccount(integration.account_id);
  await fs.promises.mkdir(executor.scratchDir, { recursive: true });
  const file = path.join(executor.scratchDir, `mail-${randomBytes(6).toString('hex')}${path.extname(received)}`);
  await fs.promises.rename(received, file);
  try {
    await ensureSchema(executor, schema);
    await refuseWideFile(executor, reader, file);
    const staging = `${STAGING_PREFIX}${table}_mail`;
    return await exclusiveAll(executor, [`table:${schema}.${table}`, `table:${schema}.${staging}`], async () => {
      await executor.run(`DROP TABLE IF EXISTS ${quoteQualified(schema, staging)}`);
      await executor.run(
        `CREATE TABLE ${quoteQualified(schema, staging)} AS SELECT row_number() OVER () AS ${q(ROW_ID)}, * FROM ${reader}`,
        [file],
      );
      return deps.writes.write(
        integration.account_id,
        PUSH_ARRIVED,
        (mark) =>
          swapTable(executor, schema, staging, table, async (tx) => {
            const described = await describeTable(tx, schema, table);
            const arrival: PushArrival = {
              accountId: integration.account_id,
              integrationId: integration.id,
              dataset: { name: dataset, table, ingestion: 'Overwrite' },
              ...described,
              received: described.rowCount,
              at: deps.clock().toISOString(),
            };
            await mark(tx, arrival);
            return described.rowCount;
          }),
        { runId },
      );
    });
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}

const tooWide = (columns: number) =>
  new Error(`The file has ${columns} columns; a dataset can have at most ${LIMITS.maxColumns}.`);

/**
 * Refuses a file wider than the column limit before anything is locked or written: a CSV by its
 * header line (DuckDB's type detection over thousands of columns is slow and memory-hungry), any
 * file by the columns DuckDB finds in it.
 */
async function refuseWideFile(executor: WarehouseExecutor, reader: string, file: string): Promise<void> {
  if (reader.startsWith('read_csv')) {
    const facts = await inspectCsvFile(file, Number.MAX_SAFE_INTEGER);
    if (facts.headerFields > LIMITS.maxColumns) throw tooWide(facts.headerFields);
  }
  const { columns } = await executor.query({ sql: `SELECT * FROM ${reader} LIMIT 0`, parameters: [file] });
  if (columns.length > LIMITS.maxColumns) throw tooWide(columns.length);
}

/** A line of the listener about an integration's mail (e.g. an ignored file), as a run of its own. */
export async function logMailEvent(
  deps: Deps,
  address: string,
  level: 'WARN' | 'ERROR',
  message: string,
): Promise<void> {
  const { db, clock } = deps;
  const integration = await db
    .selectFrom('integrations')
    .select('id')
    .where('email_address', '=', localPartOf(address))
    .executeTakeFirst();
  if (!integration) return;
  const runId = await createRun(db, integration.id, 'Sync', null, clock());
  const attemptId = await startAttempt(db, runId, [], clock());
  await appendLog(db, runId, level, message, clock());
  await finishRun(db, runId, attemptId, level === 'ERROR' ? 'Failed' : 'Completed', clock());
}

/**
 * Incoming e-mail: each attachment sent to an integration's address becomes (or replaces) the
 * dataset named after the file. CSV, JSON (an array or JSON lines) and Parquet are read by DuckDB;
 * the listener converts XML and Avro to JSON lines first. Other files are logged and ignored. Every
 * attachment is a run of its own, so the activity log shows what arrived.
 */
import path from 'node:path';
import type { Deps } from '../../context';
import { datasetTableName, q, quoteQualified, ROW_ID, STAGING_PREFIX } from './physical';
import { recordArrival } from './push-datasets';
import { listDatasetRows, type IntegrationRow } from './repo';
import { appendLog, createRun, finishRun, startAttempt } from './run-records';
import { ensureSchema } from './staging';

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
    const rows = await replaceDataset(deps, integration, dataset, reader, attachment.path);
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

/** The file's rows replace the dataset's table in one transaction (types detected by DuckDB). */
async function replaceDataset(
  deps: Deps,
  integration: IntegrationRow,
  dataset: string,
  reader: string,
  file: string,
): Promise<number> {
  const schema = integration.schema_name;
  const existing = (await listDatasetRows(deps.db, integration.id)).find((d) => d.name === dataset);
  const table =
    existing?.table_name ??
    datasetTableName(dataset, new Set((await listDatasetRows(deps.db, integration.id)).map((d) => d.table_name)));
  const executor = deps.warehouse.forAccount(integration.account_id);
  await ensureSchema(executor, schema);
  const staging = `${STAGING_PREFIX}${table}_mail`;
  const rows = await executor.exclusive(`table:${schema}.${table}`, () =>
    executor.exclusive(`table:${schema}.${staging}`, () =>
      executor.transaction(async (tx) => {
        await tx.run(`DROP TABLE IF EXISTS ${quoteQualified(schema, staging)}`);
        await tx.run(
          `CREATE TABLE ${quoteQualified(schema, staging)} AS SELECT row_number() OVER () AS ${q(ROW_ID)}, * FROM ${reader}`,
          [file],
        );
        await tx.run(`DROP TABLE IF EXISTS ${quoteQualified(schema, table)}`);
        await tx.run(`ALTER TABLE ${quoteQualified(schema, staging)} RENAME TO ${q(table)}`);
        const [count] = await tx.all({
          sql: `SELECT count(*)::DOUBLE AS n FROM ${quoteQualified(schema, table)}`,
          parameters: [],
        });
        return Number(count?.n ?? 0);
      }),
    ),
  );
  await recordArrival(deps, integration, { name: dataset, table, ingestion: 'Overwrite' }, rows);
  return rows;
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

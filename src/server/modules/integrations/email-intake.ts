/**
 * Incoming e-mail: each attachment sent to an integration's address becomes (or replaces) the
 * dataset named after the file, each value in its exact type (a CSV's decimals as decimals, a
 * JSON file's 19-digit ids as themselves, Parquet's declared types). CSV and Parquet are read by
 * DuckDB, JSON (an array or JSON lines) here; the listener converts XML and Avro to JSON lines.
 * Other files are logged and ignored. Every attachment is a run of its own, so the activity log
 * shows what arrived.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../../../shared/limits';
import type { Deps } from '../../context';
import { inspectCsvFile } from '../../warehouse/csv-file';
import { exclusiveAll } from '../../warehouse/exclusive-all';
import { exactJsonText, parseJsonExact } from '../../exact-values/json';
import { describeFile, type DataFileFormat } from './connectors/sftp/describe-file';
import { parseFormat, TEXT } from './connectors/formats';
import type { LogLevel } from './connectors/types';
import { PUSH_ARRIVED } from './durable-writes';
import { datasetTableName, renamedColumnNotices, warehouseColumnNames } from './physical';
import type { PushArrival } from './push-datasets';
import { listDatasetRows, type IntegrationRow } from './repo';
import { appendLog, createRun, finishRun, startAttempt } from './run-records';
import {
  createStaging,
  dropStaging,
  ensureSchema,
  finishStaging,
  noticeLines,
  stageFile,
  type StagedColumn,
} from './staging';
import { swapIn } from './swap-in';

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

/** How each stored file is loaded (the listener turns JSON, XML and Avro into JSON lines). */
const FORMATS: Record<string, DataFileFormat> = {
  '.csv': 'csv',
  '.json': 'jsonl',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.parquet': 'parquet',
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
  const format =
    attachment.format ??
    FORMATS[path.extname(attachment.path).toLowerCase()] ??
    FORMATS[path.extname(attachment.fileName).toLowerCase()];
  if (!format) {
    await log(
      'WARN',
      `Ignored ${attachment.fileName} (${attachment.contentType}): only CSV, JSON, XML, Parquet and Avro files are loaded.`,
    );
    await finishRun(db, runId, attemptId, 'Completed', clock());
    return { stored: false, reason: 'Unsupported file type.' };
  }
  const dataset = attachment.datasetName?.trim() || datasetNameOf(attachment.fileName);
  try {
    const rows = await replaceDataset(deps, integration, runId, dataset, format, attachment.path, log);
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

/** A JSON document (an array of records, or one) as JSON lines, numbers exact. */
async function jsonDocumentAsLines(file: string): Promise<void> {
  let parsed: unknown;
  try {
    parsed = parseJsonExact(await fs.promises.readFile(file, 'utf8'));
  } catch {
    return; // JSON lines (several documents): read line by line
  }
  const records = Array.isArray(parsed) ? parsed : [parsed];
  await fs.promises.writeFile(file, records.map((r) => exactJsonText(r)).join('\n') + '\n');
}

/**
 * The file's rows replace the dataset's table, each column in the exact format its values have
 * (describe-file.ts): staged like a sync's (staging.ts), then swapped in with the dataset's
 * metadata (durable-writes.ts). The file is moved into the account's scratch folder first: the
 * only place its warehouse reads files from.
 */
async function replaceDataset(
  deps: Deps,
  integration: IntegrationRow,
  runId: string,
  dataset: string,
  format: DataFileFormat,
  received: string,
  log: (level: 'INFO' | 'WARN' | 'ERROR', message: string) => Promise<void>,
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
  const lines: Promise<void>[] = [];
  const note = (level: LogLevel, message: string) => void lines.push(log(level, `${dataset}: ${message}`));
  try {
    await ensureSchema(executor, schema);
    if (format === 'jsonl' && path.extname(file).toLowerCase() === '.json') await jsonDocumentAsLines(file);
    await refuseWideCsv(format, file);
    const described = await describeFile(file, format);
    if (described.length > LIMITS.maxColumns) throw tooWide(described.length);
    const stored = warehouseColumnNames(described.map((c) => c.name));
    const columns: StagedColumn[] = described.map((c) => ({
      name: stored.get(c.name) ?? c.name,
      field: c.name,
      format: parseFormat(c.format) ?? TEXT,
      onMisfit: c.onMisfit,
    }));
    const staging = await createStaging(executor, schema, table, columns, note);
    for (const line of renamedColumnNotices(columns)) note('WARN', line);
    try {
      await stageFile(executor, staging, { path: file, format });
      await finishStaging(executor, staging);
      for (const line of noticeLines(staging)) note('WARN', line);
      const options = {
        table,
        ingestion: 'Overwrite' as const,
        syncType: 'FullRefresh' as const,
        primaryKey: [],
        cursorField: null,
        log: note,
      };
      return await exclusiveAll(executor, [`table:${schema}.${table}`, `table:${schema}.${staging.name}`], () =>
        deps.writes.write(
          integration.account_id,
          PUSH_ARRIVED,
          (mark) =>
            swapIn(executor, staging, options, async (tx, described) => {
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
        ),
      );
    } finally {
      await dropStaging(executor, staging).catch(() => undefined);
    }
  } finally {
    await Promise.all(lines);
    await fs.promises.rm(file, { force: true });
  }
}

const tooWide = (columns: number) =>
  new Error(`The file has ${columns} columns; a dataset can have at most ${LIMITS.maxColumns}.`);

/**
 * Refuses a CSV wider than the column limit by its header line before anything is read (DuckDB's
 * type detection over thousands of columns is slow and memory-hungry); other files by the columns
 * found in them.
 */
async function refuseWideCsv(format: DataFileFormat, file: string): Promise<void> {
  if (format !== 'csv') return;
  const facts = await inspectCsvFile(file, Number.MAX_SAFE_INTEGER);
  if (facts.headerFields > LIMITS.maxColumns) throw tooWide(facts.headerFields);
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

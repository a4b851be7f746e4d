/**
 * One dataset of a sync: read it from the connector into a staging table, then swap it in. Nothing
 * of the dataset's table changes unless the whole read succeeded.
 */
import type { IngestionType, SyncType } from '../../../shared/integrations';
import type { Column } from '../../../shared/tables';
import type { WarehouseExecutor } from '../../warehouse/types';
import type { Connector, ConnectorConfig, ConnectorContext, LogLevel } from './connectors/types';
import { alwaysSelected, discoveredOf, parseJson, type DatasetRow } from './repo';
import {
  createStaging,
  dropStaging,
  finishStaging,
  noticeLines,
  stageFile,
  stageRecords,
  type StagedColumn,
} from './staging';
import { isNumberFormat } from './number-keys';
import { swapIn } from './swap-in';
import { renamedColumnNotices, warehouseColumnNames } from './physical';
import { storageOf } from './connectors/formats';
import { exactJsonText, parseJsonExact } from '../../exact-values/json';
import { readAhead } from './read-ahead';
import { LIMITS } from '../../../shared/limits';
import type { WriteJournal } from '../../durability/write-journal';
import { exclusiveAll } from '../../warehouse/exclusive-all';
import { ConnectorError } from './connectors/types';
import { unknownFields } from './connectors/unknown-fields';
import { DATASET_SYNCED, type DatasetSynced } from './durable-writes';

/** Records are written to the staging table in batches of about this many. */
const FLUSH_RECORDS = 20_000;

export interface DatasetSyncContext {
  executor: WarehouseExecutor;
  writes: WriteJournal;
  integrationId: string;
  runId: string;
  clock: () => Date;
  connector: Connector;
  config: ConnectorConfig;
  signal: AbortSignal;
  tempDir: string;
  schema: string;
  log(level: LogLevel, message: string): void;
  progress(records: number, bytes: number): void;
}

export interface DatasetSyncResult {
  records: number;
  bytes: number;
  columns: Column[];
  rowCount: number;
  /** The state the read ended with; null when it gave none. */
  state: unknown;
  syncType: SyncType;
  ingestion: IngestionType;
}

/**
 * The properties a read asks for (the selection, all when none; primary key and cursor always),
 * each with the warehouse column it is stored in.
 */
export function selectedColumns(row: DatasetRow): StagedColumn[] {
  const discovered = discoveredOf(row);
  const stored = warehouseColumnNames(discovered.properties.map((p) => p.name));
  const chosen = new Set([...parseJson<string[]>(row.selected_properties, []), ...alwaysSelected(discovered)]);
  const properties =
    chosen.size === 0 ? discovered.properties : discovered.properties.filter((p) => chosen.has(p.name));
  return properties.map((p) => ({
    name: stored.get(p.name) ?? p.name,
    field: p.name,
    format: storageOf(p),
    onMisfit: p.onMisfit ?? 'refuse',
  }));
}

/** The saved state, numbers exact (a source's cursor may be a 64-bit id). */
function savedState(text: string | null): unknown {
  if (text === null) return null;
  try {
    return parseJsonExact(text);
  } catch {
    return null;
  }
}

export function abortedError(): Error {
  const error = new Error('The sync was stopped.');
  error.name = 'AbortError';
  return error;
}

export async function syncDataset(
  ctx: DatasetSyncContext,
  row: DatasetRow,
  fullRefresh: boolean,
): Promise<DatasetSyncResult> {
  const discovered = discoveredOf(row);
  const syncType: SyncType = fullRefresh ? 'FullRefresh' : (row.sync_type as SyncType);
  const ingestion: IngestionType = fullRefresh ? 'Overwrite' : (row.ingestion_type as IngestionType);
  const columns = selectedColumns(row);
  // Before staging widens any: which columns hold numbers at the source (number-keys.ts).
  const numberColumns = columns.filter((c) => isNumberFormat(c.format)).map((c) => c.name);
  if (columns.length > LIMITS.maxColumns) {
    throw new ConnectorError(
      `The dataset has ${columns.length} properties, but a dataset can have at most ${LIMITS.maxColumns} columns. ` +
        'Choose fewer properties in Dataset settings.',
      'ConfigError',
    );
  }
  const staging = await createStaging(ctx.executor, ctx.schema, row.table_name, columns, ctx.log);
  // Files are checked against every discovered property (REST and Airbyte records by their connectors).
  const unseen = unknownFields(new Set(discovered.properties.map((p) => p.name)));
  staging.unseen = unseen;
  for (const line of renamedColumnNotices(columns)) ctx.log('WARN', line);
  // The primary key and cursor as the warehouse table names them (the source is asked by its own names).
  const storedName = (field: string) => columns.find((c) => c.field === field)?.name ?? field;
  let buffer: Record<string, unknown>[] = [];
  let state: unknown = null;
  // One batch is written while the connector reads on; the next waits for it, so batches land in
  // the order read (row numbers follow insertion order) and a failed write stops the read.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await writing;
    if (buffer.length === 0) return;
    const records = buffer;
    buffer = [];
    writing = stageRecords(ctx.executor, staging, records, ctx.tempDir).then(() =>
      ctx.progress(staging.rows, staging.bytes),
    );
    // Met by the next flush or the final wait; until then it must not count as unhandled.
    writing.catch(() => undefined);
  };
  const flushed = async () => {
    await flush();
    await writing;
  };
  try {
    const connectorCtx: ConnectorContext = { log: ctx.log, signal: ctx.signal, tempDir: ctx.tempDir };
    const request = {
      dataset: row.name,
      properties: columns.map((c) => c.field),
      discovered: discovered.properties.map((p) => p.name),
      syncType,
      cursorField: discovered.cursorField,
      state: syncType === 'Incremental' ? savedState(row.state) : null,
    };
    for await (const item of readAhead(ctx.connector.read(ctx.config, request, connectorCtx))) {
      if (ctx.signal.aborted) throw abortedError();
      if (item.kind === 'records') {
        // Not push(...records): a connector's batch of 100k+ records would overflow the call stack.
        for (const record of item.records) buffer.push(record);
        if (buffer.length >= FLUSH_RECORDS) await flush();
      } else if (item.kind === 'file') {
        await flushed();
        await stageFile(ctx.executor, staging, item);
        ctx.progress(staging.rows, staging.bytes);
      } else if (item.kind === 'state') {
        state = item.state;
      } else {
        ctx.log(item.level, item.message);
      }
    }
    await flushed();
    if (ctx.signal.aborted) throw abortedError();
    await finishStaging(ctx.executor, staging);
    for (const line of noticeLines(staging)) ctx.log('WARN', line);
    const unseenColumns = unseen.said();
    if (unseenColumns) {
      ctx.log(
        'WARN',
        `File columns the discovery did not see are not stored: ${unseenColumns}. ` +
          "Discovery reads each dataset's newest file: refresh the datasets once it has them.",
      );
    }
    const { executor, schema } = ctx;
    const options = {
      table: row.table_name,
      ingestion,
      syncType,
      primaryKey: discovered.primaryKey.map(storedName),
      cursorField: discovered.cursorField === null ? null : storedName(discovered.cursorField),
      numberColumns,
      log: ctx.log,
    };
    // State is kept only from a successful read; a full refresh starts it over.
    const keptState = state === null ? (fullRefresh ? null : row.state) : exactJsonText(state);
    const swapped = await exclusiveAll(
      executor,
      [`table:${schema}.${row.table_name}`, `table:${schema}.${staging.name}`],
      () =>
        ctx.writes.write(
          executor.accountId,
          DATASET_SYNCED,
          (mark) =>
            swapIn(executor, staging, options, async (tx, table) => {
              const synced: DatasetSynced = {
                accountId: executor.accountId,
                integrationId: ctx.integrationId,
                datasetId: row.id,
                datasetName: row.name,
                runId: ctx.runId,
                state: keptState,
                columns: table.columns,
                rowCount: table.rowCount,
                records: staging.rows,
                syncType,
                ingestion,
                at: ctx.clock().toISOString(),
              };
              await mark(tx, synced);
              return table;
            }),
          { runId: ctx.runId },
        ),
    );
    return { records: staging.rows, bytes: staging.bytes, ...swapped, state, syncType, ingestion };
  } finally {
    await writing.catch(() => undefined);
    // After a successful swap the staging table is gone already; after a failure it is dropped here.
    await dropStaging(ctx.executor, staging).catch(() => undefined);
  }
}

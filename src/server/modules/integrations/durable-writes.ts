/**
 * How an integration's writes keep the warehouse and the metadata store agreeing across a crash
 * (src/server/durability/write-journal.ts): a sync's swap records the dataset's state, columns and
 * row count; a push (webhook call, mail attachment) records the dataset it grew; a delete removes the
 * integration with its schema. Also what a crash may leave behind: staging tables.
 */
import { z } from 'zod';
import { INGESTION_TYPES, SYNC_TYPES } from '../../../shared/integrations';
import { columnSchema } from '../../../shared/tables';
import type { Db } from '../../db/database';
import type { WriteJournal } from '../../durability/write-journal';
import { quoteQualified } from '../../warehouse/quote';
import type { WarehouseConnection } from '../../warehouse/types';
import { STAGING_PREFIX } from './physical';
import { recordPushArrival, pushArrivalSchema } from './push-datasets';
import { addRecordsPerDay, appendLog } from './run-records';

export const DATASET_SYNCED = 'integration.dataset-synced';
export const PUSH_ARRIVED = 'integration.push-arrived';
export const INTEGRATION_DELETED = 'integration.deleted';

const syncedSchema = z.object({
  accountId: z.string(),
  integrationId: z.string(),
  datasetId: z.string(),
  datasetName: z.string(),
  runId: z.string(),
  /** The incremental state to keep (JSON text), or null. */
  state: z.string().nullable(),
  columns: z.array(columnSchema),
  rowCount: z.number(),
  records: z.number(),
  syncType: z.enum(SYNC_TYPES),
  ingestion: z.enum(INGESTION_TYPES),
  at: z.string(),
});
export type DatasetSynced = z.infer<typeof syncedSchema>;

export function registerIntegrationWrites(writes: WriteJournal): void {
  writes.register(DATASET_SYNCED, {
    payload: syncedSchema,
    async apply(db: Db, synced, { recovered }) {
      const at = new Date(synced.at);
      await db
        .updateTable('integration_datasets')
        .set({
          state: synced.state,
          columns: JSON.stringify(synced.columns),
          row_count: synced.rowCount,
          last_synced_at: synced.at,
        })
        .where('id', '=', synced.datasetId)
        .execute();
      await addRecordsPerDay(db, synced.accountId, synced.integrationId, at, synced.records);
      await appendLog(
        db,
        synced.runId,
        'INFO',
        `${synced.datasetName}: ${synced.records} record(s) read (${synced.syncType}, ${synced.ingestion}); ` +
          `the table has ${synced.rowCount} row(s).${recovered ? ' They were saved just before the server stopped.' : ''}`,
        at,
      );
    },
    forgotten: (db, runId, why) =>
      appendLog(db, runId, 'WARN', `${why} The dataset keeps its previous rows.`, new Date()),
  });
  writes.register(PUSH_ARRIVED, {
    payload: pushArrivalSchema,
    apply: (db: Db, arrival) => recordPushArrival(db, arrival),
    forgotten: (db, runId, why) =>
      appendLog(db, runId, 'WARN', `${why} The dataset keeps its previous rows.`, new Date()),
  });
  writes.register(INTEGRATION_DELETED, {
    payload: z.object({ integrationId: z.string() }),
    async apply(db: Db, { integrationId }) {
      await db.deleteFrom('integrations').where('id', '=', integrationId).execute();
    },
  });
}

/** Drops staging tables a crash left (a sync, or a mail attachment, cut off before its swap). */
export async function sweepStagingTables(connection: WarehouseConnection): Promise<void> {
  const rows = await connection.all({
    sql:
      'SELECT schema_name, table_name FROM duckdb_tables() ' +
      'WHERE database_name = current_database() AND starts_with(table_name, $1)',
    parameters: [STAGING_PREFIX],
  });
  for (const row of rows) {
    await connection.run(`DROP TABLE IF EXISTS ${quoteQualified(String(row.schema_name), String(row.table_name))}`);
  }
}

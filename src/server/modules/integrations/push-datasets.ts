/**
 * Datasets of push sources (webhook, incoming e-mail): they appear when data arrives, and their
 * metadata follows the table after each arrival. Recorded with the arrival's warehouse write
 * (durable-writes.ts), so a crash between the two cannot leave them apart.
 */
import { z } from 'zod';
import { INGESTION_TYPES } from '../../../shared/integrations';
import { columnSchema } from '../../../shared/tables';
import type { Db } from '../../db/database';
import { newId } from '../../db/ids';
import type { DiscoveredDataset } from './connectors/types';
import { addRecordsPerDay } from './run-records';

export const pushArrivalSchema = z.object({
  accountId: z.string(),
  integrationId: z.string(),
  dataset: z.object({ name: z.string(), table: z.string(), ingestion: z.enum(INGESTION_TYPES) }),
  /** The table's columns and rows after the arrival. */
  columns: z.array(columnSchema),
  rowCount: z.number(),
  received: z.number(),
  at: z.string(),
});
export type PushArrival = z.infer<typeof pushArrivalSchema>;

/** The dataset row follows its table (columns, properties, row count); the day's count grows. */
export async function recordPushArrival(db: Db, arrival: PushArrival): Promise<void> {
  const { dataset, columns } = arrival;
  const discovered: DiscoveredDataset = {
    name: dataset.name,
    properties: columns.map((c) => ({ name: c.columnKey, type: c.type, isPrimaryKey: false, isCursor: false })),
    supportedSyncTypes: [dataset.ingestion === 'Overwrite' ? 'FullRefresh' : 'Incremental'],
    supportedIngestionTypes: [dataset.ingestion],
    primaryKey: [],
    cursorField: null,
  };
  const fields = {
    discovered: JSON.stringify(discovered),
    selected_properties: JSON.stringify(columns.map((c) => c.columnKey)),
    columns: JSON.stringify(columns),
    row_count: arrival.rowCount,
    last_synced_at: arrival.at,
  };
  const integration = await db
    .selectFrom('integrations')
    .select('id')
    .where('id', '=', arrival.integrationId)
    .executeTakeFirst();
  if (!integration) return; // deleted since
  const existing = await db
    .selectFrom('integration_datasets')
    .select('id')
    .where('integration_id', '=', arrival.integrationId)
    .where('name', '=', dataset.name)
    .executeTakeFirst();
  if (existing) await db.updateTable('integration_datasets').set(fields).where('id', '=', existing.id).execute();
  else {
    const position = await db
      .selectFrom('integration_datasets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('integration_id', '=', arrival.integrationId)
      .executeTakeFirst();
    await db
      .insertInto('integration_datasets')
      .values({
        id: newId(),
        integration_id: arrival.integrationId,
        name: dataset.name,
        table_name: dataset.table,
        position: Number(position?.n ?? 0),
        is_selected: 1,
        sync_type: discovered.supportedSyncTypes[0] as string,
        ingestion_type: dataset.ingestion,
        state: null,
        ...fields,
      })
      .execute();
  }
  await addRecordsPerDay(db, arrival.accountId, arrival.integrationId, new Date(arrival.at), arrival.received);
}

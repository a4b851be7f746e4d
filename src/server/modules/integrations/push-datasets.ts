/**
 * Datasets of push sources (webhook, incoming e-mail): they appear when data arrives, and their
 * metadata follows the table after each arrival.
 */
import type { IngestionType } from '../../../shared/integrations';
import type { Deps } from '../../context';
import { newId } from '../../db/ids';
import type { DiscoveredDataset } from './connectors/types';
import type { IntegrationRow } from './repo';
import { addRecordsPerDay } from './run-records';
import { describeTable } from './staging';

export interface PushDataset {
  name: string;
  table: string;
  ingestion: IngestionType;
}

/** The dataset row follows its table (columns, properties, row count); the day's count grows. */
export async function recordArrival(
  deps: Deps,
  integration: IntegrationRow,
  dataset: PushDataset,
  received: number,
): Promise<void> {
  const { db, clock } = deps;
  const executor = deps.warehouse.forAccount(integration.account_id);
  const described = await describeTable(executor, integration.schema_name, dataset.table);
  const discovered: DiscoveredDataset = {
    name: dataset.name,
    properties: described.columns.map((c) => ({
      name: c.columnKey,
      type: c.type,
      isPrimaryKey: false,
      isCursor: false,
    })),
    supportedSyncTypes: [dataset.ingestion === 'Overwrite' ? 'FullRefresh' : 'Incremental'],
    supportedIngestionTypes: [dataset.ingestion],
    primaryKey: [],
    cursorField: null,
  };
  const now = clock().toISOString();
  const fields = {
    discovered: JSON.stringify(discovered),
    selected_properties: JSON.stringify(described.columns.map((c) => c.columnKey)),
    columns: JSON.stringify(described.columns),
    row_count: described.rowCount,
    last_synced_at: now,
  };
  const existing = await db
    .selectFrom('integration_datasets')
    .select('id')
    .where('integration_id', '=', integration.id)
    .where('name', '=', dataset.name)
    .executeTakeFirst();
  if (existing) await db.updateTable('integration_datasets').set(fields).where('id', '=', existing.id).execute();
  else {
    const position = await db
      .selectFrom('integration_datasets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('integration_id', '=', integration.id)
      .executeTakeFirst();
    await db
      .insertInto('integration_datasets')
      .values({
        id: newId(),
        integration_id: integration.id,
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
  await addRecordsPerDay(db, integration.account_id, integration.id, clock(), received);
}

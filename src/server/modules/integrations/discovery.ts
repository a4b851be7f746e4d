/**
 * Dataset discovery, run in the background after create and on 'Refresh datasets': the integration
 * shows Processing, then its datasets, or Error ('Failed to discover datasets') with the reason.
 * A dataset found again keeps its selection; a new one starts unselected with the best defaults.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../db/database';
import { newId } from '../../db/ids';
import type { Connector, ConnectorConfig, DiscoveredDataset } from './connectors/types';
import { datasetTableName } from './physical';
import { alwaysSelected, defaultsOf, discoveredOf, listDatasetRows, parseJson, storedColumns } from './repo';

export async function setDiscoveryStatus(db: Db, integrationId: string, status: string, error: string | null) {
  await db
    .updateTable('integrations')
    .set({ discovery_status: status, discovery_error: error })
    .where('id', '=', integrationId)
    .execute();
}

/** Asks the connector for its datasets and stores them; never throws (the status says how it went). */
export async function runDiscovery(
  db: Db,
  integrationId: string,
  connector: Connector,
  config: ConnectorConfig,
  signal: AbortSignal,
): Promise<void> {
  const tempDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ws-discover-'));
  try {
    const found = await connector.discover(config, { log: () => undefined, signal, tempDir });
    await storeDatasets(db, integrationId, found);
    await setDiscoveryStatus(db, integrationId, 'Loaded', null);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await setDiscoveryStatus(db, integrationId, 'Error', message).catch(() => undefined);
  } finally {
    await fs.promises.rm(tempDir, { recursive: true, force: true });
  }
}

/** Keeps the user's choices where they still apply (selection, sync and ingestion types). */
export async function storeDatasets(db: Db, integrationId: string, found: DiscoveredDataset[]): Promise<void> {
  const names = new Set(found.map((d) => d.name));
  if (names.size !== found.length) {
    const twice = found.find((d, i) => found.findIndex((o) => o.name === d.name) !== i)?.name;
    throw new Error(`The source has two datasets named "${String(twice)}"`);
  }
  await db.transaction().execute(async (trx) => {
    const existing = new Map((await listDatasetRows(trx, integrationId)).map((row) => [row.name, row]));
    const taken = new Set([...existing.values()].map((row) => row.table_name));
    // A dataset the connector names anew keeps its row (choices, state, table) under the new name.
    for (const dataset of found) {
      const former = dataset.formerName;
      if (former === undefined || existing.has(dataset.name) || names.has(former)) continue;
      const row = existing.get(former);
      if (!row) continue;
      await trx.updateTable('integration_datasets').set({ name: dataset.name }).where('id', '=', row.id).execute();
      existing.delete(former);
      existing.set(dataset.name, { ...row, name: dataset.name });
    }
    for (const [index, dataset] of found.entries()) {
      const defaults = defaultsOf(dataset);
      const row = existing.get(dataset.name);
      if (row) {
        const before = discoveredOf(row);
        const known = new Set(dataset.properties.map((p) => p.name));
        const selected = parseJson<string[]>(row.selected_properties, []).filter((p) => known.has(p));
        // Properties the source added since are selected when the user had chosen all of them before.
        const hadAll = before.properties.every((p) => selected.includes(p.name));
        const nextSelected = hadAll
          ? dataset.properties.map((p) => p.name)
          : [...new Set([...selected, ...alwaysSelected(dataset)])];
        await trx
          .updateTable('integration_datasets')
          .set({
            position: index,
            discovered: JSON.stringify(dataset),
            selected_properties: JSON.stringify(nextSelected),
            sync_type: dataset.supportedSyncTypes.includes(row.sync_type as never) ? row.sync_type : defaults.syncType,
            ingestion_type: dataset.supportedIngestionTypes.includes(row.ingestion_type as never)
              ? row.ingestion_type
              : defaults.ingestionType,
          })
          .where('id', '=', row.id)
          .execute();
        continue;
      }
      const tableName = datasetTableName(dataset.name, taken);
      taken.add(tableName);
      await trx
        .insertInto('integration_datasets')
        .values({
          id: newId(),
          integration_id: integrationId,
          name: dataset.name,
          table_name: tableName,
          position: index,
          is_selected: 0,
          discovered: JSON.stringify(dataset),
          selected_properties: JSON.stringify(dataset.properties.map((p) => p.name)),
          sync_type: defaults.syncType,
          ingestion_type: defaults.ingestionType,
          state: null,
          columns: null,
          row_count: null,
          last_synced_at: null,
        })
        .execute();
    }
    // Gone from the source: forgotten unless they hold synced rows (kept readable, no longer synced).
    for (const row of existing.values()) {
      if (names.has(row.name)) continue;
      if (storedColumns(row).length === 0)
        await trx.deleteFrom('integration_datasets').where('id', '=', row.id).execute();
      else await trx.updateTable('integration_datasets').set({ is_selected: 0 }).where('id', '=', row.id).execute();
    }
  });
}

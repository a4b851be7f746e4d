/** Reads of the metadata store for integrations, datasets and runs, and their shared shapes. */
import type { Selectable } from 'kysely';
import type { Dataset, DatasetProperty, IngestionType, Run, RunStatus, SyncType } from '../../../shared/integrations';
import type { Column } from '../../../shared/tables';
import type { Db } from '../../db/database';
import type { IntegrationDatasetsTable, IntegrationRunsTable, IntegrationsTable } from '../../db/schema';
import type { DiscoveredDataset } from './connectors/types';

export type IntegrationRow = Selectable<IntegrationsTable>;
export type DatasetRow = Selectable<IntegrationDatasetsTable>;
export type RunRow = Selectable<IntegrationRunsTable>;

/** The integration if it belongs to the account; other accounts' ids read as missing. */
export function findIntegration(db: Db, accountId: string, id: string): Promise<IntegrationRow | undefined> {
  return db
    .selectFrom('integrations')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export function listDatasetRows(db: Db, integrationId: string): Promise<DatasetRow[]> {
  return db
    .selectFrom('integration_datasets')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .orderBy('position')
    .execute();
}

export function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function discoveredOf(row: DatasetRow): DiscoveredDataset {
  return parseJson<DiscoveredDataset>(row.discovered, {
    name: row.name,
    properties: [],
    supportedSyncTypes: ['FullRefresh'],
    supportedIngestionTypes: ['Overwrite'],
    primaryKey: [],
    cursorField: null,
  });
}

/** The columns the dataset's table had when last written; empty before its first sync. */
export function storedColumns(row: DatasetRow): Column[] {
  return parseJson<Column[]>(row.columns, []);
}

/** The sync and ingestion types a dataset starts with: incremental de-duplicated when it can. */
export function defaultsOf(discovered: DiscoveredDataset): { syncType: SyncType; ingestionType: IngestionType } {
  const incremental = discovered.supportedSyncTypes.includes('Incremental') && discovered.cursorField !== null;
  const syncType: SyncType = incremental ? 'Incremental' : (discovered.supportedSyncTypes[0] ?? 'FullRefresh');
  const dedup =
    incremental && discovered.primaryKey.length > 0 && discovered.supportedIngestionTypes.includes('AppendDedup');
  const ingestionType: IngestionType = dedup
    ? 'AppendDedup'
    : discovered.supportedIngestionTypes.includes('Overwrite')
      ? 'Overwrite'
      : (discovered.supportedIngestionTypes[0] ?? 'Overwrite');
  return { syncType, ingestionType };
}

/** Primary key and cursor properties: always selected (spec §5). */
export function alwaysSelected(discovered: DiscoveredDataset): string[] {
  return [...discovered.primaryKey, ...(discovered.cursorField ? [discovered.cursorField] : [])];
}

export function toDataset(row: DatasetRow): Dataset {
  const discovered = discoveredOf(row);
  const defaults = defaultsOf(discovered);
  const properties: DatasetProperty[] = discovered.properties.map((p) => ({
    name: p.name,
    type: p.type,
    isPrimaryKey: p.isPrimaryKey || discovered.primaryKey.includes(p.name),
    isCursor: p.isCursor || discovered.cursorField === p.name,
    ...(p.description === undefined ? {} : { description: p.description }),
    ...(p.format === undefined ? {} : { format: p.format }),
  }));
  return {
    id: row.id,
    name: row.name,
    isSelected: row.is_selected === 1,
    availableProperties: properties,
    selectedProperties: parseJson<string[]>(row.selected_properties, []),
    syncOptions: { default: defaults.syncType, supportedTypes: discovered.supportedSyncTypes },
    ingestionOptions: { default: defaults.ingestionType, supportedTypes: discovered.supportedIngestionTypes },
    syncType: row.sync_type as SyncType,
    dataIngestionType: row.ingestion_type as IngestionType,
    primaryKey: discovered.primaryKey,
    cursorField: discovered.cursorField,
    tableName: row.table_name,
    rowCount: row.row_count,
    lastSyncedAt: row.last_synced_at,
  };
}

export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    status: row.status as RunStatus,
    kind: row.kind === 'FullRefresh' ? 'FullRefresh' : 'Sync',
    createdAt: row.created_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    recordsProcessed: row.records_processed,
    bytesProcessed: row.bytes_processed,
  };
}

/** The newest `count` runs of each integration, newest first (one small indexed query each). */
export async function recentRuns(db: Db, integrationIds: string[], count: number): Promise<Map<string, Run[]>> {
  const entries = await Promise.all(
    integrationIds.map(async (id) => {
      const rows = await db
        .selectFrom('integration_runs')
        .selectAll()
        .where('integration_id', '=', id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(count)
        .execute();
      return [id, rows.map(toRun)] as const;
    }),
  );
  return new Map(entries);
}

/** A run not yet over (Pending or Running) of the integration, if any. */
export function activeRun(db: Db, integrationId: string): Promise<RunRow | undefined> {
  return db
    .selectFrom('integration_runs')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .where('status', 'in', ['Pending', 'Running'])
    .executeTakeFirst();
}

/** Calls about an integration's datasets and schedule: refresh-dataset, datasets get/put, schedule. */
import type { DatasetsResponse, DiscoveryStatus, Integration, IntegrationType } from '../../../shared/integrations';
import {
  INTEGRATION_MESSAGES,
  type SaveDatasetsRequest,
  type SaveScheduleRequest,
  type ScheduleSettings,
} from '../../../shared/integrations';
import type { AccountContext } from '../../context';
import type { IntegrationsTable } from '../../db/schema';
import { badInput } from '../../errors';
import { requireWriter } from '../accounts/access';
import type { IntegrationsCore } from './core';
import { alwaysSelected, discoveredOf, listDatasetRows, toDataset, type IntegrationRow } from './repo';
import { cronOfPreset, nextRunAfter, validCron } from './schedule';

const PUSH: readonly IntegrationType[] = ['Webhook', 'IncomingEmail'];

export function createDatasetCalls(core: IntegrationsCore, typeOf: (row: IntegrationRow) => Promise<IntegrationType>) {
  const { db, clock } = core.deps;

  async function datasetsOf(row: IntegrationRow): Promise<DatasetsResponse> {
    const status = row.discovery_status as DiscoveryStatus;
    return {
      status,
      message:
        status === 'Processing'
          ? INTEGRATION_MESSAGES.discovering
          : status === 'Error'
            ? `${INTEGRATION_MESSAGES.discoveryFailed}${row.discovery_error ? `: ${row.discovery_error}` : ''}`
            : null,
      datasets: (await listDatasetRows(db, row.id)).map(toDataset),
    };
  }

  return {
    /** Runs discovery again in the background ('Refresh datasets'). */
    async refreshDatasets(ctx: AccountContext, id: string): Promise<DatasetsResponse> {
      const row = await core.mustFind(ctx, id);
      requireWriter(ctx);
      if (PUSH.includes(await typeOf(row))) return datasetsOf(row);
      await core.discover(row);
      return datasetsOf(await core.mustFind(ctx, id));
    },

    async datasets(ctx: AccountContext, id: string): Promise<DatasetsResponse> {
      return datasetsOf(await core.mustFind(ctx, id));
    },

    /**
     * Saves the choices per dataset name: selection, properties (primary key and cursor always kept),
     * sync and ingestion types among the supported ones.
     */
    async saveDatasets(ctx: AccountContext, id: string, input: SaveDatasetsRequest): Promise<DatasetsResponse> {
      const row = await core.mustFind(ctx, id);
      requireWriter(ctx);
      const { datasets: changes } = input;
      const rows = new Map((await listDatasetRows(db, id)).map((d) => [d.name, d]));
      const updates: { id: string; set: Record<string, string | number | null> }[] = [];
      for (const [name, change] of Object.entries(changes)) {
        const dataset = rows.get(name);
        if (!dataset) throw badInput(`datasets: there is no dataset named "${name}".`);
        const discovered = discoveredOf(dataset);
        const set: Record<string, string | number | null> = {};
        if (change.isSelected !== undefined) set.is_selected = change.isSelected ? 1 : 0;
        if (change.selectedProperties !== undefined) {
          const known = new Set(discovered.properties.map((p) => p.name));
          const unknown = change.selectedProperties.find((p) => !known.has(p));
          if (unknown !== undefined) throw badInput(`${name}: there is no property named "${unknown}".`);
          const chosen = new Set([...change.selectedProperties, ...alwaysSelected(discovered)]);
          set.selected_properties = JSON.stringify(
            discovered.properties.map((p) => p.name).filter((p) => chosen.has(p)),
          );
        }
        const syncType = change.syncType ?? dataset.sync_type;
        if (change.syncType !== undefined) {
          if (!discovered.supportedSyncTypes.includes(change.syncType))
            throw badInput(`${name}: sync type ${change.syncType} is not supported.`);
          if (change.syncType === 'Incremental' && !discovered.cursorField)
            throw badInput(`${name}: an incremental sync needs a cursor field.`);
          set.sync_type = change.syncType;
        }
        if (change.dataIngestionType !== undefined) {
          if (!discovered.supportedIngestionTypes.includes(change.dataIngestionType))
            throw badInput(`${name}: ingestion type ${change.dataIngestionType} is not supported.`);
          if (change.dataIngestionType === 'AppendDedup' && discovered.primaryKey.length === 0)
            throw badInput(`${name}: de-duplication needs a primary key.`);
          set.ingestion_type = change.dataIngestionType;
        }
        // A full refresh starts over: the next incremental sync reads from the beginning.
        if (syncType === 'FullRefresh' && dataset.state !== null) set.state = null;
        if (Object.keys(set).length > 0) updates.push({ id: dataset.id, set });
      }
      await db.transaction().execute(async (trx) => {
        for (const update of updates)
          await trx.updateTable('integration_datasets').set(update.set).where('id', '=', update.id).execute();
      });
      return datasetsOf(row);
    },

    /**
     * Manual saves Inactive; Scheduled saves Active with a 5-field UTC cron (a Day, Week or Month preset,
     * or the given expression). Without a schedule, `status` alone is the Data syncing toggle.
     */
    async saveSchedule(ctx: AccountContext, id: string, input: SaveScheduleRequest): Promise<Integration> {
      const row = await core.mustFind(ctx, id);
      requireWriter(ctx);
      if (PUSH.includes(await typeOf(row))) throw badInput(INTEGRATION_MESSAGES.pushOnly);
      const now = clock();
      const changes: Partial<IntegrationsTable> = { modified_at: now.toISOString() };
      if (input.schedule?.type === 'Manual') {
        Object.assign(changes, {
          sync_status: 'Inactive',
          sync_frequency_type: 'Manual',
          sync_pattern: null,
          next_run_at: null,
          schedule: JSON.stringify({ type: 'Manual' } satisfies ScheduleSettings),
        });
      } else if (input.schedule) {
        const { cron, ...preset } = input.schedule;
        const pattern = validCron(cron ?? cronOfPreset(preset));
        const next = nextRunAfter(pattern, now);
        Object.assign(changes, {
          sync_status: 'Active',
          sync_frequency_type: 'Cron',
          sync_pattern: pattern,
          next_run_at: next ? next.toISOString() : null,
          schedule: JSON.stringify({ ...preset, ...(cron ? { cron: pattern } : {}) }),
        });
      } else if (input.status) {
        // On with no schedule to follow would read "on" and never sync: a schedule comes first.
        if (input.status === 'Active' && !row.sync_pattern) throw badInput(INTEGRATION_MESSAGES.scheduleNeeded);
        const next = input.status === 'Active' && row.sync_pattern ? nextRunAfter(row.sync_pattern, now) : null;
        Object.assign(changes, { sync_status: input.status, next_run_at: next ? next.toISOString() : null });
      } else {
        throw badInput('Send a schedule or a status.');
      }
      await db.updateTable('integrations').set(changes).where('id', '=', id).execute();
      return core.view({ ...row, ...changes }, ctx);
    },
  };
}

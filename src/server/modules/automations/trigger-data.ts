/**
 * The trigger's data a run carries ({{trigger.<field>}} in step inputs): who pressed Run now, when
 * a schedule fired, which sync finished. The runner builds it when a run starts (a rerun keeps the
 * original's); previews use sampleTriggerData, built from what the account holds now.
 */
import type { AutomationTrigger, InputValue, TriggerType } from '../../../shared/automations';
import type { AccountContext, Deps } from '../../context';
import type { AppEvents } from '../../events';

export type ManualTriggerData = { type: 'Manual'; userId: string; userName: string; at: string };
export type ScheduleTriggerData = { type: 'Schedule'; scheduledFor: string; at: string };
export type AfterSyncTriggerData = {
  type: 'AfterSync';
  integrationId: string;
  integrationName: string;
  syncRunId: string;
  status: string;
  recordsProcessed: number;
  datasets: { name: string; recordsProcessed: number }[];
  at: string;
};
export type TriggerData = ManualTriggerData | ScheduleTriggerData | AfterSyncTriggerData;

/** The fields {{trigger.<name>}} may name, per trigger type (Configure offers them as placeholders). */
export const TRIGGER_FIELDS: Record<TriggerType, { name: string; label: string }[]> = {
  Manual: [
    { name: 'userId', label: 'User id' },
    { name: 'userName', label: 'User name' },
    { name: 'at', label: 'Started at' },
  ],
  Schedule: [
    { name: 'scheduledFor', label: 'Scheduled for' },
    { name: 'at', label: 'Started at' },
  ],
  AfterSync: [
    { name: 'integrationId', label: 'Integration id' },
    { name: 'integrationName', label: 'Integration name' },
    { name: 'syncRunId', label: 'Sync run id' },
    { name: 'status', label: 'Sync status' },
    { name: 'recordsProcessed', label: 'Records processed' },
    { name: 'datasets', label: 'Datasets synced' },
    { name: 'at', label: 'Sync ended at' },
  ],
};

/** As a run stores it (step inputs and the run page read a plain JSON object). */
export function asInputValues(data: TriggerData): Record<string, InputValue> {
  return data as unknown as Record<string, InputValue>;
}

/** Run now (and the API's trigger): the caller. */
export function manualTriggerData(user: { id: string; name: string; email?: string }, at: Date): ManualTriggerData {
  return { type: 'Manual', userId: user.id, userName: user.name || user.email || '', at: at.toISOString() };
}

/** A schedule's tick: the time it was due, and when the run was made. */
export function scheduleTriggerData(scheduledFor: string, at: Date): ScheduleTriggerData {
  return { type: 'Schedule', scheduledFor, at: at.toISOString() };
}

/** A finished sync of the trigger's integration (deps.events 'syncFinished'). */
export function afterSyncTriggerData(
  event: AppEvents['syncFinished'],
  integrationName: string,
  at: Date,
): AfterSyncTriggerData {
  return {
    type: 'AfterSync',
    integrationId: event.integrationId,
    integrationName,
    syncRunId: event.runId,
    status: event.status,
    recordsProcessed: event.recordsProcessed,
    datasets: event.datasets.map((d) => ({ name: d.name, recordsProcessed: d.recordsProcessed })),
    at: at.toISOString(),
  };
}

interface SampleSource {
  trigger: AutomationTrigger;
  nextRunAt: string | null;
}

/**
 * What the trigger's data would look like now, for previews (preview-initial-data, step previews):
 * Manual as the caller pressing Run now; Schedule at its next time; AfterSync from the integration's
 * last completed sync run (zeros and no datasets before its first).
 */
export async function sampleTriggerData(
  deps: Deps,
  ctx: AccountContext,
  definition: SampleSource,
): Promise<TriggerData> {
  const now = deps.clock();
  switch (definition.trigger.type) {
    case 'Manual':
      return manualTriggerData(ctx.user, now);
    case 'Schedule':
      return scheduleTriggerData(definition.nextRunAt ?? now.toISOString(), now);
    case 'AfterSync': {
      const integrationId = definition.trigger.integrationId;
      const integration = integrationId
        ? await deps.db
            .selectFrom('integrations')
            .select(['id', 'name'])
            .where('id', '=', integrationId)
            .where('account_id', '=', ctx.accountId)
            .executeTakeFirst()
        : undefined;
      const run = integration
        ? await deps.db
            .selectFrom('integration_runs')
            .selectAll()
            .where('integration_id', '=', integration.id)
            .where('status', '=', 'Completed')
            .orderBy('ended_at', 'desc')
            .orderBy('created_at', 'desc')
            .executeTakeFirst()
        : undefined;
      const datasets = run ? await datasetsOfRun(deps, run.id) : [];
      return {
        type: 'AfterSync',
        integrationId: integration?.id ?? '',
        integrationName: integration?.name ?? '',
        syncRunId: run?.id ?? '',
        status: run?.status ?? 'Completed',
        recordsProcessed: run?.records_processed ?? 0,
        datasets,
        at: run?.ended_at ?? now.toISOString(),
      };
    }
  }
}

/** Datasets whose rows a run brought, from its last attempt's progress. */
async function datasetsOfRun(deps: Deps, runId: string): Promise<{ name: string; recordsProcessed: number }[]> {
  const attempt = await deps.db
    .selectFrom('integration_attempts')
    .select('progress')
    .where('run_id', '=', runId)
    .orderBy('attempt_number', 'desc')
    .executeTakeFirst();
  if (!attempt) return [];
  try {
    const progress = JSON.parse(attempt.progress) as { datasets?: { name?: unknown; recordsProcessed?: unknown }[] };
    return (progress.datasets ?? [])
      .filter((d) => typeof d.name === 'string')
      .map((d) => ({
        name: d.name as string,
        recordsProcessed: typeof d.recordsProcessed === 'number' ? d.recordsProcessed : 0,
      }))
      .filter((d) => d.recordsProcessed > 0);
  } catch {
    return [];
  }
}

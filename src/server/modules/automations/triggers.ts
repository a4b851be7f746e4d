/**
 * What starts runs besides 'Run now': the schedule (a ticker like the integrations' one, reading
 * the injected clock: definitions whose Schedule trigger is due get a run and their next time moved
 * on) and a completed sync of the chosen integration (AfterSync, optionally only when it brought
 * rows). Both run as the definition's creator.
 */
import type { InputValue } from '../../../shared/automations';
import type { AppEvents } from '../../events';
import type { Deps } from '../../context';
import { nextRunAfter } from '../integrations/schedule';
import { snapshotError, takeSnapshot } from './snapshot';
import { appendRunLog, insertRun } from './run-records';
import type { DefinitionChecks } from './run-service';
import { afterSyncTriggerData, asInputValues, scheduleTriggerData } from './trigger-data';

/** Creates a run of the definition unless it cannot run (an error, one already going); answers its id or null. */
async function queueAutomatic(
  deps: Deps,
  checks: DefinitionChecks,
  definition: { id: string; account_id: string; created_by: string | null },
  origin: 'Schedule' | 'AfterSync',
  triggerData: Record<string, InputValue>,
): Promise<string | null> {
  const snapshot = await takeSnapshot(deps.db, definition.id);
  // A creator who left (null) still gets a run: it fails at its start saying whom it cannot run as.
  if (!snapshot || snapshotError(snapshot) !== null) return null;
  if ((await checks.definitionError(definition.account_id, definition.id)) !== null) return null;
  const inserted = await insertRun(
    deps.db,
    { accountId: definition.account_id, snapshot, origin, triggerData, runAsUserId: definition.created_by },
    deps.clock(),
  );
  if (inserted.id === null) await noteSkippedStart(deps, inserted.runningId, origin);
  return inserted.id;
}

/** One run of a definition at a time: a start that came meanwhile is written in the log of the run that kept it out. */
async function noteSkippedStart(deps: Deps, runningId: string, origin: 'Schedule' | 'AfterSync'): Promise<void> {
  const what = origin === 'Schedule' ? 'A scheduled start' : "A start after the integration's sync";
  await appendRunLog(
    deps.db,
    runningId,
    null,
    'WARN',
    `${what} was skipped at ${deps.clock().toISOString()}: this run had not ended.`,
    deps.clock(),
  );
}

/** One scheduler round: every due Schedule definition gets a run, and its next run time moves on. */
export async function scheduleRound(deps: Deps, checks: DefinitionChecks, wake: () => void): Promise<void> {
  const now = deps.clock();
  const due = await deps.db
    .selectFrom('automation_definitions')
    .select(['id', 'account_id', 'created_by', 'schedule_pattern', 'next_run_at'])
    .where('trigger_type', '=', 'Schedule')
    .where('next_run_at', 'is not', null)
    .where('next_run_at', '<=', now.toISOString())
    .execute();
  let queued = 0;
  for (const definition of due) {
    const next = definition.schedule_pattern ? nextRunAfter(definition.schedule_pattern, now) : null;
    // Moved on first: a definition that cannot run now is not retried every tick.
    await deps.db
      .updateTable('automation_definitions')
      .set({ next_run_at: next ? next.toISOString() : null })
      .where('id', '=', definition.id)
      .where('next_run_at', '=', definition.next_run_at)
      .execute();
    const id = await queueAutomatic(
      deps,
      checks,
      definition,
      'Schedule',
      asInputValues(scheduleTriggerData(definition.next_run_at as string, now)),
    );
    if (id) queued += 1;
  }
  if (queued > 0) wake();
}

/** AfterSync: a completed sync of the chosen integration starts a run of each definition waiting for it. */
export async function onSyncFinished(
  deps: Deps,
  checks: DefinitionChecks,
  event: AppEvents['syncFinished'],
  wake: () => void,
): Promise<void> {
  if (event.status !== 'Completed') return;
  const definitions = await deps.db
    .selectFrom('automation_definitions')
    .select(['id', 'account_id', 'created_by', 'trigger_new_rows_only'])
    .where('account_id', '=', event.accountId)
    .where('trigger_type', '=', 'AfterSync')
    .where('trigger_integration_id', '=', event.integrationId)
    .execute();
  if (definitions.length === 0) return;
  const integration = await deps.db
    .selectFrom('integrations')
    .select('name')
    .where('id', '=', event.integrationId)
    .executeTakeFirst();
  let queued = 0;
  for (const definition of definitions) {
    if (definition.trigger_new_rows_only === 1 && event.recordsProcessed <= 0) continue;
    const id = await queueAutomatic(
      deps,
      checks,
      definition,
      'AfterSync',
      asInputValues(afterSyncTriggerData(event, integration?.name ?? '', deps.clock())),
    );
    if (id) queued += 1;
  }
  if (queued > 0) wake();
}

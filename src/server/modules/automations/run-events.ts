/**
 * What the outside sees of a run: the automations hub's events (started, completed, failed,
 * cancelled, stepProgress; each an AutomationHubMessage to the run's account) and the notification
 * a failed run sends its definition's owner.
 */
import {
  type AutomationHubEvent,
  type AutomationHubMessage,
  type AutomationRunStatus,
} from '../../../shared/automations';
import type { Deps } from '../../context';
import type { AutomationRunRow } from '../../db/schema';
import { notify } from '../notifications/notify';

export type RunIdentity = Pick<AutomationRunRow, 'id' | 'account_id' | 'definition_id' | 'run_number' | 'name'>;

export function hubMessage(
  run: RunIdentity,
  status: AutomationRunStatus,
  error: string | null,
  step?: AutomationHubMessage['step'],
): AutomationHubMessage {
  return {
    automationId: run.id,
    automationDefinitionId: run.definition_id,
    runId: run.id,
    runNumber: run.run_number,
    name: run.name,
    status,
    error,
    ...(step ? { step } : {}),
  };
}

export function pushRunEvent(deps: Deps, run: RunIdentity, event: AutomationHubEvent, message: AutomationHubMessage) {
  deps.hubs.toAccount('automations', run.account_id, event, message);
}

/** The hub event that tells of a run ending with this status. */
export function endEventOf(status: AutomationRunStatus): AutomationHubEvent {
  if (status === 'Completed') return 'completed';
  if (status === 'Cancelled') return 'cancelled';
  return 'failed';
}

/** A run that failed (or ran out of time) tells the definition's owner; after the run's rows are saved. */
export async function notifyRunFailed(deps: Deps, run: RunIdentity, error: string | null): Promise<void> {
  const definition = await deps.db
    .selectFrom('automation_definitions')
    .select('created_by')
    .where('id', '=', run.definition_id)
    .executeTakeFirst();
  if (!definition?.created_by) return;
  await notify(deps, {
    accountId: run.account_id,
    userIds: [definition.created_by],
    kind: 'AutomationFailed',
    title: 'Automation failed',
    body: `"${run.name}" run #${run.run_number} failed${error ? `: ${error}` : '.'}`,
    severity: 'Error',
    target: { type: 'Automation', id: run.definition_id },
  });
}

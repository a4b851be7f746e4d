/**
 * Executes one claimed run, step by step. A step whose output is saved is finished and never runs
 * again (its output feeds the placeholders of later steps); the first step without one runs, and
 * its output is saved before the next starts, so a run taken over after a crash resumes exactly
 * there. A step that was Running when its worker died continues its same attempt (same
 * idempotency key, so a receiver that deduplicates sees one effect); a retry is a new attempt.
 */
import {
  AUTOMATION_MESSAGES,
  type AutomationLogLevel,
  type AutomationRunStatus,
  type InputValue,
} from '../../../shared/automations';
import { canWrite } from '../../../shared/roles';
import type { AccountContext, Deps } from '../../context';
import { parseRoles } from '../../db/database';
import type { AutomationRunRow } from '../../db/schema';
import type { CoreServices } from '../../services';
import { appendRunLog } from './run-records';
import { endEventOf, hubMessage, notifyRunFailed, pushRunEvent } from './run-events';
import { parseSnapshot } from './snapshot';
import { runStep, type StepRunContext } from './step-attempts';
import { classifyStepError, configError } from './step-errors';
import type { TemplateScope } from './templates';

/** Why a run's work was stopped from outside the step. */
export type StopReason = 'cancel' | 'runTimeout' | 'shutdown' | 'leaseLost';

/** A run this worker holds the lease of. */
export interface ClaimedRun {
  id: string;
  /** Aborted (with a StopReason) on cancellation, the run's time limit, shutdown or a lost lease. */
  signal: AbortSignal;
  stopReason(): StopReason | null;
  /** The run's deadline became known (set at its first start): the worker arms its timer. */
  setDeadline(at: Date): void;
}

export interface ExecutionEnv {
  deps: Deps;
  core: CoreServices;
  workerId: string;
}

function parseOutput(text: string): Record<string, InputValue> {
  try {
    return JSON.parse(text) as Record<string, InputValue>;
  } catch {
    return {};
  }
}

/** The rights the steps run with: the run-as user's, while they may still change the account's data. */
async function runAsContext(deps: Deps, run: AutomationRunRow): Promise<AccountContext> {
  const user = run.run_as_user_id
    ? await deps.db.selectFrom('users').selectAll().where('id', '=', run.run_as_user_id).executeTakeFirst()
    : undefined;
  if (!user) throw configError('The user this automation runs as no longer exists.');
  const membership = await deps.db
    .selectFrom('memberships')
    .select('roles')
    .where('account_id', '=', run.account_id)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  const roles = membership ? parseRoles(membership.roles) : [];
  if (!membership || !canWrite(roles, parseRoles(user.roles)))
    throw configError(
      `${user.name || user.email} can no longer change this account's data, so the automation cannot run as them.`,
    );
  return { user, accountId: run.account_id, roles };
}

export async function executeRun(env: ExecutionEnv, claimed: ClaimedRun): Promise<void> {
  const { deps, core, workerId } = env;
  const { db, clock } = deps;
  const runRow = await db.selectFrom('automation_runs').selectAll().where('id', '=', claimed.id).executeTakeFirst();
  if (!runRow) return;
  const run: AutomationRunRow = runRow;
  const snapshot = parseSnapshot(run.snapshot);
  const log = (stepId: string | null, level: AutomationLogLevel, message: string) =>
    appendRunLog(db, run.id, stepId, level, message, clock());

  /** Ends the run (only while this worker still holds it) and tells the outside. */
  async function finish(status: AutomationRunStatus, error: string | null): Promise<void> {
    const ended = await db
      .updateTable('automation_runs')
      .set({
        status,
        error,
        ended_at: clock().toISOString(),
        lease_owner: null,
        lease_expires_at: null,
        not_before: null,
      })
      .where('id', '=', run.id)
      .where('lease_owner', '=', workerId)
      .executeTakeFirst();
    if (Number(ended.numUpdatedRows) === 0) return;
    await log(
      null,
      status === 'Completed' ? 'INFO' : status === 'Cancelled' ? 'WARN' : 'ERROR',
      status === 'Completed'
        ? 'Run completed.'
        : `Run ${status === 'TimedOut' ? 'timed out' : status.toLowerCase()}: ${error ?? ''}`.trim(),
    );
    pushRunEvent(deps, run, endEventOf(status), hubMessage(run, status, error));
    if (status === 'Failed' || status === 'TimedOut' || status === 'Error')
      await notifyRunFailed(deps, run, error).catch((e: unknown) =>
        console.error('Could not send the automation failure notification', e),
      );
  }

  if (run.cancel_requested === 1) return finish('Cancelled', AUTOMATION_MESSAGES.cancelledByUser);

  const now = clock();
  const firstStart = run.started_at === null;
  const startedAt = run.started_at ?? now.toISOString();
  const deadline = run.deadline_at ?? new Date(Date.parse(startedAt) + snapshot.runTimeoutSeconds * 1000).toISOString();
  await db
    .updateTable('automation_runs')
    .set({ status: 'Running', started_at: startedAt, deadline_at: deadline })
    .where('id', '=', run.id)
    .where('lease_owner', '=', workerId)
    .execute();
  claimed.setDeadline(new Date(deadline));
  if (firstStart) {
    await log(null, 'INFO', `Run #${run.run_number} started: ${snapshot.steps.length} step(s).`);
    pushRunEvent(deps, run, 'started', hubMessage(run, 'Running', null));
  } else {
    await log(
      null,
      'WARN',
      'The run was taken over after its worker stopped; it resumes at its first unfinished step.',
    );
  }

  let ctx: AccountContext;
  try {
    ctx = await runAsContext(deps, run);
  } catch (error) {
    return finish('Failed', classifyStepError(error).message);
  }

  const stepRows = new Map(
    (await db.selectFrom('automation_step_runs').selectAll().where('run_id', '=', run.id).execute()).map((s) => [
      s.step_id,
      s,
    ]),
  );
  const outputs: Record<string, InputValue> = {};
  const scope = (): TemplateScope => ({
    trigger: JSON.parse(run.trigger_data) as InputValue,
    steps: outputs,
    run: { id: run.id, number: run.run_number, startedAt },
    automation: { id: run.definition_id, name: run.name },
  });

  const within: StepRunContext = {
    deps,
    core,
    run,
    claimed,
    ctx,
    startedAt,
    runTimeoutSeconds: snapshot.runTimeoutSeconds,
    scope,
    log,
  };
  for (const step of snapshot.steps) {
    const row = stepRows.get(step.id);
    if (row?.output != null) {
      outputs[step.id] = parseOutput(row.output);
      continue;
    }
    const outcome = await runStep(within, step, row?.status ?? 'Pending', row?.attempt ?? 0);
    if (outcome.kind === 'stopped') return;
    if (outcome.kind === 'ended') return finish(outcome.status, outcome.error);
    outputs[step.id] = outcome.output;
  }
  return finish('Completed', null);
}

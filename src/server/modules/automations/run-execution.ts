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
  type StepRunStatus,
} from '../../../shared/automations';
import type { AttemptErrorType } from '../../../shared/integrations';
import { canWrite } from '../../../shared/roles';
import type { AccountContext, Deps } from '../../context';
import { parseRoles } from '../../db/database';
import type { AutomationRunRow } from '../../db/schema';
import type { CoreServices } from '../../services';
import { once } from './side-effects';
import { stepCompleted, stepStarted } from './step-writes';
import { appendRunLog } from './run-records';
import { endEventOf, hubMessage, notifyRunFailed, pushRunEvent } from './run-events';
import { parseSnapshot, type SnapshotStep } from './snapshot';
import { classifyStepError, configError } from './step-errors';
import type { StepRunEnv } from './step-kind';
import { stepKind } from './step-kinds';
import { resolveInputs, type TemplateScope } from './templates';

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

const PROGRESS_EVERY_MS = 1_000;
const MASK = '********';

type StepOutcome =
  | { kind: 'done'; output: Record<string, InputValue> }
  | { kind: 'ended'; status: AutomationRunStatus; error: string }
  | { kind: 'stopped' };

function parseOutput(text: string): Record<string, InputValue> {
  try {
    return JSON.parse(text) as Record<string, InputValue>;
  } catch {
    return {};
  }
}

/** Resolves when `ms` passed, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Rejects when the signal aborts: a kind that ignores its signal still lets the run move on. */
function abortOf(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let listener: () => void = () => undefined;
  const promise = new Promise<never>((_, reject) => {
    listener = () => reject(Object.assign(new Error('Aborted'), { name: 'AbortError' }));
    if (signal.aborted) listener();
    else signal.addEventListener('abort', listener, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener('abort', listener) };
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

  for (const step of snapshot.steps) {
    const row = stepRows.get(step.id);
    if (row?.output != null) {
      outputs[step.id] = parseOutput(row.output);
      continue;
    }
    const outcome = await runStep(step, row?.status ?? 'Pending', row?.attempt ?? 0);
    if (outcome.kind === 'stopped') return;
    if (outcome.kind === 'ended') return finish(outcome.status, outcome.error);
    outputs[step.id] = outcome.output;
  }
  return finish('Completed', null);

  async function runStep(step: SnapshotStep, savedStatus: string, savedAttempt: number): Promise<StepOutcome> {
    const stepLog = (level: AutomationLogLevel, message: string) => log(step.id, level, message);
    const kind = stepKind(step.kind);
    const policy = step.policy;
    // A step Running when its worker died continues that attempt: same key, nothing counted twice.
    let continuing = savedStatus === 'Running' && savedAttempt > 0;
    let attempt = continuing ? savedAttempt : savedAttempt + 1;
    if (continuing) await stepLog('WARN', AUTOMATION_MESSAGES.interrupted);

    const setStep = (status: StepRunStatus, fields: { error?: string | null; progress?: string | null } = {}) =>
      pushRunEvent(
        deps,
        run,
        'stepProgress',
        hubMessage(run, 'Running', null, {
          stepId: step.id,
          name: step.name,
          status,
          attempt,
          progress: fields.progress ?? null,
        }),
      );

    const endAttempt = (status: StepRunStatus, error: string | null, type: AttemptErrorType | null) =>
      db
        .updateTable('automation_step_attempts')
        .set({ status, ended_at: clock().toISOString(), error, error_type: type })
        .where('run_id', '=', run.id)
        .where('step_id', '=', step.id)
        .where('attempt', '=', attempt)
        .execute();

    const endStep = async (status: StepRunStatus, error: string | null, output: Record<string, InputValue> | null) => {
      await db
        .updateTable('automation_step_runs')
        .set({
          status,
          error,
          output: output === null ? null : JSON.stringify(output),
          ended_at: clock().toISOString(),
        })
        .where('run_id', '=', run.id)
        .where('step_id', '=', step.id)
        .execute();
      setStep(status, { error });
    };

    /** The run stops here for a reason outside the step; null when it goes on. */
    const stopped = async (): Promise<StepOutcome | null> => {
      const reason = claimed.stopReason();
      if (reason === null) return null;
      if (reason === 'shutdown' || reason === 'leaseLost') return { kind: 'stopped' };
      if (reason === 'cancel') {
        await endAttempt('Cancelled', AUTOMATION_MESSAGES.cancelledByUser, null);
        await endStep('Cancelled', AUTOMATION_MESSAGES.cancelledByUser, null);
        return { kind: 'ended', status: 'Cancelled', error: AUTOMATION_MESSAGES.cancelledByUser };
      }
      const message = AUTOMATION_MESSAGES.runTimedOut(snapshot.runTimeoutSeconds);
      await endAttempt('TimedOut', message, 'TransientError');
      await endStep('TimedOut', message, null);
      return { kind: 'ended', status: 'TimedOut', error: message };
    };

    for (;;) {
      const early = await stopped();
      if (early) return early;

      const resolved = resolveInputs(step.inputs, scope());
      const masked = { ...resolved.inputs };
      for (const name of kind?.secretInputs ?? []) if (name in masked) masked[name] = MASK;
      const at = clock().toISOString();
      await stepStarted(db, { runId: run.id, stepId: step.id, attempt }, JSON.stringify(masked), at, !continuing);
      // The first attempt's start needs no line of its own; a retry's does.
      if (!continuing && attempt > 1) await stepLog('INFO', `${step.name}: attempt ${attempt} started.`);
      setStep('Running');
      continuing = false;

      let failure: { type: AttemptErrorType; message: string; status: StepRunStatus } | null = null;
      let output: Record<string, InputValue> = {};
      if (!kind) failure = { type: 'ConfigError', message: 'This kind of step is not available.', status: 'Failed' };
      else if (resolved.unresolved.length > 0)
        failure = {
          type: 'ConfigError',
          message: `Cannot resolve ${resolved.unresolved.map((p) => `{{${p}}}`).join(', ')}.`,
          status: 'Failed',
        };
      else {
        // The step's signal: aborted by the run's (cancel, run deadline, shutdown) or by its own time
        // limit. Linked by hand: AbortSignal.any costs ~0.1 ms a step and keeps its signals until GC.
        const stepAbort = new AbortController();
        let stepTimedOut = false;
        const onRunAbort = () => stepAbort.abort(claimed.signal.reason);
        if (claimed.signal.aborted) onRunAbort();
        else claimed.signal.addEventListener('abort', onRunAbort, { once: true });
        const timeout = setTimeout(() => {
          stepTimedOut = true;
          stepAbort.abort('stepTimeout');
        }, policy.timeoutSeconds * 1000);
        const signal = stepAbort.signal;
        const aborted = abortOf(signal);
        let lastProgress = 0;
        let pendingProgress: NodeJS.Timeout | null = null;
        const writeProgress = (text: string) => {
          lastProgress = Date.now();
          void db
            .updateTable('automation_step_runs')
            .set({ progress: text })
            .where('run_id', '=', run.id)
            .where('step_id', '=', step.id)
            .where('status', '=', 'Running')
            .execute()
            .catch(() => undefined);
          setStep('Running', { progress: text });
        };
        const stepEnv: StepRunEnv = {
          deps,
          services: core,
          ctx,
          run: { id: run.id, number: run.run_number, definitionId: run.definition_id, name: run.name, startedAt },
          stepId: step.id,
          attempt,
          idempotencyKey: `${run.id}:${step.id}:${attempt}`,
          signal,
          log: stepLog,
          progress(text) {
            if (pendingProgress) clearTimeout(pendingProgress);
            const wait = PROGRESS_EVERY_MS - (Date.now() - lastProgress);
            if (wait <= 0) writeProgress(text);
            else pendingProgress = setTimeout(() => writeProgress(text), wait);
          },
          once: (key, effect) => once(db, clock, { runId: run.id, stepId: step.id }, key, effect),
        };
        try {
          output = await Promise.race([
            kind.run(stepEnv, {
              id: step.id,
              name: step.name,
              kind: step.kind,
              integrationId: step.integrationId,
              inputs: resolved.inputs,
            }),
            aborted.promise,
          ]);
        } catch (error) {
          failure =
            stepTimedOut && !claimed.signal.aborted
              ? {
                  type: 'TransientError',
                  message: AUTOMATION_MESSAGES.stepTimedOut(policy.timeoutSeconds),
                  status: 'TimedOut',
                }
              : { ...classifyStepError(error), status: 'Failed' };
        } finally {
          clearTimeout(timeout);
          if (pendingProgress) clearTimeout(pendingProgress);
          aborted.dispose();
          claimed.signal.removeEventListener('abort', onRunAbort);
        }
      }

      const outside = await stopped();
      if (outside) return outside;

      if (!failure) {
        // Saved before the next step starts: from here on the step is never run again.
        const skipped = output.skipped === true;
        const reason = typeof output.reason === 'string' && output.reason ? ` (${output.reason})` : '';
        await stepCompleted(
          db,
          { runId: run.id, stepId: step.id, attempt },
          JSON.stringify(output),
          clock().toISOString(),
          skipped ? `${step.name}: skipped${reason}.` : `${step.name}: completed.`,
          skipped ? 'Skipped' : 'Completed',
        );
        setStep(skipped ? 'Skipped' : 'Completed');
        return { kind: 'done', output };
      }

      await endAttempt(failure.status, failure.message, failure.type);
      await stepLog('ERROR', `${step.name}: attempt ${attempt} failed: ${failure.type}: ${failure.message}`);
      const retried =
        failure.type !== 'ConfigError' && policy.retryOn.includes(failure.type) && attempt < policy.attempts;
      if (retried) {
        const waitMs = Math.round(policy.backoffSeconds * 1000 * 2 ** (attempt - 1));
        await db
          .updateTable('automation_runs')
          .set({ not_before: new Date(clock().getTime() + waitMs).toISOString() })
          .where('id', '=', run.id)
          .execute();
        await db
          .updateTable('automation_step_runs')
          .set({ status: 'Pending', error: failure.message })
          .where('run_id', '=', run.id)
          .where('step_id', '=', step.id)
          .execute();
        setStep('Pending', { error: failure.message });
        await stepLog(
          'INFO',
          `${step.name}: retrying in ${waitMs / 1000} s (attempt ${attempt + 1} of ${policy.attempts}).`,
        );
        await pause(waitMs, claimed.signal);
        // Stopped while waiting: the back-off stays recorded, so whoever resumes the run waits it out too.
        if (claimed.stopReason() === null)
          await db.updateTable('automation_runs').set({ not_before: null }).where('id', '=', run.id).execute();
        attempt += 1;
        continue;
      }
      if (policy.onFailure === 'Warn') {
        // Saved with an empty output: the run goes on and a resume does not run it again.
        await endStep('Warned', failure.message, {});
        await stepLog('WARN', `${step.name}: ${failure.message} The run goes on (this step only warns).`);
        return { kind: 'done', output: {} };
      }
      await endStep(failure.status, failure.message, null);
      return {
        kind: 'ended',
        status: failure.status === 'TimedOut' ? 'TimedOut' : 'Failed',
        error: `${step.name}: ${failure.message}`,
      };
    }
  }
}

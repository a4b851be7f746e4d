/**
 * The attempt loop of one step of a run: each attempt resolves the step's placeholders, runs its
 * kind under the step's time limit and the run's signal, and records its start and end; a failure
 * the policy retries waits out a back-off first (recorded on the run, so a resumed run waits too).
 */
import {
  AUTOMATION_MESSAGES,
  type AutomationLogLevel,
  type AutomationRunStatus,
  type InputValue,
  type StepRunStatus,
} from '../../../shared/automations';
import type { AttemptErrorType } from '../../../shared/integrations';
import type { AccountContext, Deps } from '../../context';
import type { AutomationRunRow } from '../../db/schema';
import type { CoreServices } from '../../services';
import type { ClaimedRun } from './run-execution';
import { hubMessage, pushRunEvent } from './run-events';
import { once } from './side-effects';
import type { SnapshotStep } from './snapshot';
import { classifyStepError } from './step-errors';
import type { StepRunEnv } from './step-kind';
import { stepKind } from './step-kinds';
import { stepCompleted, stepStarted } from './step-writes';
import { resolveInputs, type TemplateScope } from './templates';

const PROGRESS_EVERY_MS = 1_000;
const MASK = '********';

export type StepOutcome =
  | { kind: 'done'; output: Record<string, InputValue> }
  | { kind: 'ended'; status: AutomationRunStatus; error: string }
  | { kind: 'stopped' };

/** The run a step runs in, as executeRun holds it. */
export interface StepRunContext {
  deps: Deps;
  core: CoreServices;
  run: AutomationRunRow;
  claimed: ClaimedRun;
  /** The rights the step runs with (the run-as user's). */
  ctx: AccountContext;
  startedAt: string;
  runTimeoutSeconds: number;
  /** The placeholders' values now: the trigger's data and the outputs of the steps done so far. */
  scope(): TemplateScope;
  log(stepId: string | null, level: AutomationLogLevel, message: string): Promise<void>;
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

/**
 * Runs one step until it is done, ends the run or the run is stopped: attempt after attempt as its
 * policy allows (retries with back-off, the step's time limit), each recorded with its idempotency key.
 */
export async function runStep(
  within: StepRunContext,
  step: SnapshotStep,
  savedStatus: string,
  savedAttempt: number,
): Promise<StepOutcome> {
  const { deps, core, run, claimed, ctx, startedAt, runTimeoutSeconds, scope, log } = within;
  const { db, clock } = deps;
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
    const message = AUTOMATION_MESSAGES.runTimedOut(runTimeoutSeconds);
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

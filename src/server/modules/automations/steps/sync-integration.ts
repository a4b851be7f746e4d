/**
 * Sync integration: starts a sync of the step's integration through the integrations service (as
 * the run's user) and waits for the run's end, polling its row. A sync already waiting or running
 * (409) is waited for instead of failing. The step's signal aborting stops the waiting and cancels
 * the sync this step started. A Failed sync fails the step: TransientError when the source could not
 * be reached (the run's errors say so), ConfigError otherwise.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { STEP_KIND_LABELS, type InputValue } from '../../../../shared/automations';
import type { Job, Run } from '../../../../shared/integrations';
import { AppError } from '../../../errors';
import { configError, transientError } from '../step-errors';
import type { StepEnv, StepKindDefinition, StepRunEnv } from '../step-kind';
import { firstProblem, problemOf } from './data-inputs';
import { booleanInput, listInput } from './step-inputs';

/** The connectors whose integrations sync (push integrations, webhook and e-mail, are fed instead). */
export const SYNCING_CONNECTORS = ['sample-data', 'rest-api', 'postgres', 'sftp', 'airbyte'];
const POLL_MS = 300;
const FINISHED = ['Completed', 'Failed', 'Cancelled'];

async function integrationOf(env: StepEnv, integrationId: string | null) {
  if (!integrationId) throw configError('Choose the integration to sync.');
  try {
    return await env.services.integrations.get(env.ctx, integrationId);
  } catch (error) {
    if (error instanceof AppError && error.kind === 'NotFound')
      throw configError('The step’s integration no longer exists: choose the integration to sync.');
    throw error;
  }
}

/** What the run's progress says, e.g. 'Syncing orders: 1,200 rows'. */
function progressOf(job: Job): string | null {
  const datasets = job.attempts.at(-1)?.progress.datasets ?? [];
  const running = datasets.find((d) => d.status === 'Running');
  if (running) return `Syncing ${running.name}: ${running.recordsProcessed.toLocaleString('en-US')} rows`;
  const done = datasets.filter((d) => d.status === 'Completed').length;
  return datasets.length ? `${done} of ${datasets.length} dataset(s) synced` : null;
}

/** Why a run failed, and whether trying again may help (a source unreachable) or not. */
async function failureOf(env: StepEnv, integrationId: string, job: Job): Promise<Error> {
  const errors = (job.attempts.at(-1)?.progress.datasets ?? []).flatMap((d) =>
    d.errors.map((e) => ({ ...e, message: `${d.name}: ${e.message}` })),
  );
  const lines = errors.length
    ? []
    : (await env.services.integrations.logs(env.ctx, integrationId, job.id)).filter((l) => l.level === 'ERROR');
  const transient =
    errors.some((e) => e.type === 'TransientError') || lines.some((l) => /TransientError/.test(l.message));
  const reason = errors[0]?.message ?? lines[0]?.message ?? 'The sync failed.';
  return transient ? transientError(`The sync failed: ${reason}`) : configError(`The sync failed: ${reason}`);
}

export const syncIntegrationStep: StepKindDefinition = {
  kind: 'SyncIntegration',
  label: STEP_KIND_LABELS.SyncIntegration,
  description: 'Syncs an integration’s datasets and waits until the sync has finished.',
  integrationConnectors: SYNCING_CONNECTORS,
  inputs: [
    {
      name: 'datasets',
      label: 'Datasets',
      description: 'None chosen: the integration’s selected datasets.',
      type: 'multiselect',
      required: false,
      default: [],
    },
    {
      name: 'fullRefresh',
      label: 'Full refresh',
      description: 'Start the datasets over instead of syncing what is new.',
      type: 'boolean',
      required: false,
      default: false,
    },
  ],
  outputs: [
    { name: 'syncRunId', label: 'Sync run id' },
    { name: 'status', label: 'Sync status' },
    { name: 'recordsProcessed', label: 'Records processed' },
  ],
  sideEffects: false,

  async inputOptions(env, step) {
    if (!step.integrationId) return { datasets: [] };
    const listed = await env.services.integrations.datasets(env.ctx, step.integrationId).catch(() => null);
    return {
      datasets: (listed?.datasets ?? []).map((d) => ({
        value: d.name,
        label: d.isSelected ? d.name : `${d.name} (not selected)`,
      })),
    };
  },

  validate(step) {
    return firstProblem([
      [step.integrationId === null, 'Choose the integration to sync.'],
      [problemOf(() => listInput(step.inputs, 'datasets')) !== null, 'Datasets: choose from the list.'],
      [problemOf(() => booleanInput(step.inputs, 'fullRefresh')) !== null, 'Full refresh is yes or no.'],
    ]);
  },

  async preview(env, step) {
    const integration = await integrationOf(env, step.integrationId);
    const { datasets, fullRefresh } = chosen(step.inputs);
    const listed = await env.services.integrations.datasets(env.ctx, integration.id);
    const names = datasets.length ? datasets : listed.datasets.filter((d) => d.isSelected).map((d) => d.name);
    const status = await env.services.integrations.jobStatus(env.ctx, integration.id);
    return {
      summary: `Would ${fullRefresh ? 'fully refresh' : 'sync'} ${names.length ? names.join(', ') : 'no dataset'} of ${integration.name}${status.isRunning ? ' (a sync is running now: the step would wait for it)' : ''}.`,
      details: {
        integration: integration.name,
        datasets: names,
        fullRefresh,
        lastSync: status.latestRun ? { status: status.latestRun.status, endedAt: status.latestRun.endedAt } : null,
      },
    };
  },

  async run(env, step) {
    const integration = await integrationOf(env, step.integrationId);
    const { datasets, fullRefresh } = chosen(step.inputs);
    env.signal.throwIfAborted();
    let run: Run;
    let ours = true;
    try {
      run = await env.services.integrations.syncDatasets(env.ctx, integration.id, { datasets, fullRefresh });
      await env.log(
        'INFO',
        `Started a ${fullRefresh ? 'full refresh' : 'sync'} of ${integration.name} (run ${run.id}).`,
      );
    } catch (error) {
      if (!(error instanceof AppError && error.kind === 'Conflict')) throw error;
      const status = await env.services.integrations.jobStatus(env.ctx, integration.id);
      if (!status.isRunning || !status.latestRun) throw error; // it ended meanwhile: a retry starts one
      run = status.latestRun;
      ours = false;
      await env.log('INFO', `A sync of ${integration.name} is already running (run ${run.id}): waiting for it.`);
    }
    const job = await waitForEnd(env, integration.id, run.id, ours);
    await env.log(
      job.status === 'Completed' ? 'INFO' : 'ERROR',
      `The sync of ${integration.name} ended ${job.status}: ${job.recordsProcessed.toLocaleString('en-US')} record(s).`,
    );
    if (job.status === 'Failed') throw await failureOf(env, integration.id, job);
    if (job.status === 'Cancelled') throw transientError(`The sync of ${integration.name} was cancelled.`);
    return { syncRunId: job.id, status: job.status, recordsProcessed: job.recordsProcessed };
  },
};

function chosen(inputs: Record<string, InputValue>) {
  return { datasets: listInput(inputs, 'datasets'), fullRefresh: booleanInput(inputs, 'fullRefresh') };
}

/** Polls the run until it has ended; on abort, cancels it when this step started it. */
async function waitForEnd(env: StepRunEnv, integrationId: string, runId: string, ours: boolean): Promise<Job> {
  let shown: string | null = null;
  for (;;) {
    const job = await env.services.integrations.job(env.ctx, integrationId, runId);
    if (FINISHED.includes(job.status)) return job;
    const progress = progressOf(job);
    if (progress && progress !== shown) env.progress((shown = progress));
    try {
      await sleep(POLL_MS, undefined, { signal: env.signal });
    } catch (error) {
      if (ours) {
        await env.services.integrations.cancelRun(env.ctx, integrationId, runId).catch(() => false);
        await env.log('WARN', 'The step was stopped: its sync was cancelled.');
      }
      throw env.signal.reason instanceof Error ? env.signal.reason : error;
    }
  }
}

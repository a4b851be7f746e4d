/**
 * What the data steps' tests share: a run's environment built from the real app (a definition and a
 * run row so at-most-once effects have their owner, the user's context from their membership, logs
 * and progress collected), and a Sample data integration synced for real.
 */
import type { AutomationLogLevel, InputValue, StepKind } from '../../../src/shared/automations';
import { newId } from '../../../src/server/db/ids';
import { accountContextOf } from '../../../src/server/modules/accounts/access';
import { once } from '../../../src/server/modules/automations/side-effects';
import type { ConfiguredStep, StepEnv, StepRunEnv } from '../../../src/server/modules/automations/step-kind';
import { stepKind } from '../../../src/server/modules/automations/step-kinds';
import { classifyStepError } from '../../../src/server/modules/automations/step-errors';
import type { TestApp } from '../helpers';
import { expectCompleted, sampleIntegration, selectDatasets, syncNow, type Integration } from '../integrations/helpers';

export async function contextOf(t: TestApp, accountId: string, userId: string) {
  const user = await t.deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const membership = await t.deps.db
    .selectFrom('memberships')
    .select('roles')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return accountContextOf({ ...user, current_account_id: accountId }, membership?.roles);
}

export async function stepEnv(t: TestApp, accountId: string, userId: string): Promise<StepEnv> {
  return { deps: t.deps, services: t.services, ctx: await contextOf(t, accountId, userId) };
}

/** An automation definition of the account (created by `userId`) and a run of it. */
export async function definitionAndRun(t: TestApp, accountId: string, userId: string) {
  const now = t.deps.clock().toISOString();
  const definitionId = newId();
  const runId = newId();
  await t.deps.db
    .insertInto('automation_definitions')
    .values({
      id: definitionId,
      account_id: accountId,
      name: 'Nightly',
      description: '',
      trigger_type: 'Manual',
      schedule: null,
      schedule_pattern: null,
      next_run_at: null,
      trigger_integration_id: null,
      trigger_new_rows_only: 0,
      run_timeout_seconds: 3600,
      run_counter: 1,
      created_by: userId,
      created_at: now,
      modified_at: now,
    })
    .execute();
  await t.deps.db
    .insertInto('automation_runs')
    .values({
      id: runId,
      account_id: accountId,
      definition_id: definitionId,
      run_number: 1,
      name: 'Nightly',
      status: 'Running',
      origin: 'Manual',
      trigger_data: '{}',
      snapshot: '{}',
      rerun_of: null,
      resumed_from_step_id: null,
      run_as_user_id: userId,
      created_at: now,
      started_at: now,
      ended_at: null,
      deadline_at: null,
      error: null,
      lease_owner: null,
      lease_expires_at: null,
      not_before: null,
      cancel_requested: 0,
    })
    .execute();
  return { definitionId, runId };
}

export interface RunEnvHandle {
  env: StepRunEnv;
  logs: { level: AutomationLogLevel; message: string }[];
  progress: string[];
  controller: AbortController;
}

/** A run environment as the runner builds one: run `run`, step `stepId`, attempt `attempt`. */
export async function runEnv(
  t: TestApp,
  accountId: string,
  userId: string,
  run: { definitionId: string; runId: string },
  stepId = 'step-1',
  attempt = 1,
): Promise<RunEnvHandle> {
  const base = await stepEnv(t, accountId, userId);
  const logs: RunEnvHandle['logs'] = [];
  const progress: string[] = [];
  const controller = new AbortController();
  const env: StepRunEnv = {
    ...base,
    run: {
      id: run.runId,
      number: 1,
      definitionId: run.definitionId,
      name: 'Nightly',
      startedAt: t.deps.clock().toISOString(),
    },
    stepId,
    attempt,
    idempotencyKey: `${run.runId}:${stepId}:${attempt}`,
    signal: controller.signal,
    log: async (level, message) => {
      logs.push({ level, message });
    },
    progress: (text) => {
      progress.push(text);
    },
    once: (key, effect) => once(t.deps.db, t.deps.clock, { runId: run.runId, stepId }, key, effect),
  };
  return { env, logs, progress, controller };
}

export function configured(
  kind: StepKind,
  inputs: Record<string, InputValue>,
  integrationId: string | null = null,
): ConfiguredStep {
  return { id: 'step-1', name: kind, kind, integrationId, inputs };
}

export function kindOf(kind: StepKind) {
  const found = stepKind(kind);
  if (!found) throw new Error(`Step kind ${kind} is not registered`);
  return found;
}

/** The step's failure as the runner classifies it. */
export async function failureOf(work: Promise<unknown>): Promise<{ type: string; message: string }> {
  try {
    await work;
  } catch (error) {
    return classifyStepError(error);
  }
  throw new Error('The step did not fail');
}

/** A Sample data integration with customers and orders synced (full refresh), and its datasets' table ids. */
export async function syncedSample(t: TestApp, cookie: string, name = 'Shop') {
  const integration: Integration = await sampleIntegration(t, cookie, name);
  const datasets = await selectDatasets(t, cookie, integration.id, {
    customers: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    orders: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
  });
  expectCompleted(await syncNow(t, cookie, integration.id));
  const ids = Object.fromEntries(datasets.datasets.map((d) => [d.name, d.id]));
  return { integration, orders: `IntegrationDataset:${ids.orders}`, customers: `IntegrationDataset:${ids.customers}` };
}

/**
 * Running one step kind's run() the way the runner does, against a real app: a definition and a
 * run row (side effects belong to a run), the run-as user's AccountContext, env.once over the
 * app's side-effects table, logs collected. `crashAfterStarted` simulates a server that died
 * during the effect: the Started row stays and the effect's promise is abandoned.
 */
import type { InputValue, StepKind } from '../../../src/shared/automations';
import { newId } from '../../../src/server/db/ids';
import { resolveAccountContext } from '../../../src/server/modules/accounts/access';
import { once } from '../../../src/server/modules/automations/side-effects';
import type { ResolvedStep, StepEnv, StepRunEnv } from '../../../src/server/modules/automations/step-kind';
import { stepKind } from '../../../src/server/modules/automations/step-kinds';
import type { TestApp } from '../helpers';

export interface StepHarness {
  runId: string;
  env(options?: { attempt?: number; signal?: AbortSignal }): StepRunEnv & { logs: string[] };
  previewEnv: StepEnv;
  step(kind: StepKind, inputs: Record<string, InputValue>, integrationId?: string | null): ResolvedStep;
}

export async function stepHarness(t: TestApp, email: string): Promise<StepHarness> {
  const { db } = t.deps;
  const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const ctx = await resolveAccountContext(t.deps, user);
  const now = t.deps.clock().toISOString();
  const definitionId = newId();
  const runId = newId();
  await db
    .insertInto('automation_definitions')
    .values({
      id: definitionId,
      account_id: ctx.accountId,
      name: 'Steps out',
      description: '',
      trigger_type: 'Manual',
      trigger_new_rows_only: 0,
      run_timeout_seconds: 3_600,
      run_counter: 1,
      created_at: now,
      modified_at: now,
    })
    .execute();
  await db
    .insertInto('automation_runs')
    .values({
      id: runId,
      account_id: ctx.accountId,
      definition_id: definitionId,
      run_number: 1,
      name: 'Steps out',
      status: 'Running',
      origin: 'Manual',
      trigger_data: '{}',
      snapshot: '{}',
      cancel_requested: 0,
      created_at: now,
    })
    .execute();
  const previewEnv: StepEnv = { deps: t.deps, services: t.services, ctx };
  const stepId = 'step1';
  return {
    runId,
    previewEnv,
    step: (kind, inputs, integrationId = null) => ({ id: stepId, name: kind, kind, integrationId, inputs }),
    env({ attempt = 1, signal = new AbortController().signal } = {}) {
      const logs: string[] = [];
      return {
        ...previewEnv,
        run: { id: runId, number: 1, definitionId, name: 'Steps out', startedAt: now },
        stepId,
        attempt,
        idempotencyKey: `${runId}:${stepId}:${attempt}`,
        signal,
        logs,
        log: (level, message) => {
          logs.push(`${level} ${message}`);
          return Promise.resolve();
        },
        progress: () => undefined,
        once: (key, effect) => once(db, t.deps.clock, { runId, stepId }, key, effect),
      };
    },
  };
}

/** The kind's definition; fails when it is not registered. */
export function kindOf(kind: StepKind) {
  const found = stepKind(kind);
  if (!found) throw new Error(`Step kind ${kind} is not registered`);
  return found;
}

/** The side-effect rows of a run (key, state). */
export async function sideEffects(t: TestApp, runId: string): Promise<{ key: string; state: string }[]> {
  return t.deps.db
    .selectFrom('automation_side_effects')
    .select(['key', 'state'])
    .where('run_id', '=', runId)
    .orderBy('key')
    .execute();
}

/** Leaves `key` Started, as a server that died during the effect would. */
export async function leaveStarted(t: TestApp, runId: string, key: string): Promise<void> {
  const now = t.deps.clock().toISOString();
  await t.deps.db
    .insertInto('automation_side_effects')
    .values({ key, run_id: runId, step_id: 'step1', state: 'Started', result: null, created_at: now, updated_at: now })
    .execute();
}

/**
 * Runner tests' fixtures: definitions written straight into the store (the definitions service is
 * another area's), and a test step kind whose inputs say what it does (succeed, fail a number of
 * times, hang until aborted), counting its calls and the idempotency keys it saw.
 */
import { expect } from 'vitest';
import type { AutomationRun, AutomationRunDetail, InputValue, StepPolicy } from '../../../src/shared/automations';
import { DEFAULT_STEP_POLICY } from '../../../src/shared/automations';
import { newId } from '../../../src/server/db/ids';
import type { StepKindDefinition } from '../../../src/server/modules/automations/step-kind';
import { stepKinds } from '../../../src/server/modules/automations/step-kinds';
import { configError, transientError } from '../../../src/server/modules/automations/step-errors';
import { call, type TestApp } from '../helpers';

export interface FakeCalls {
  /** Every call: step id, attempt and key. */
  calls: { stepId: string; attempt: number; key: string; inputs: Record<string, InputValue> }[];
  /** Signals of hanging calls that were aborted. */
  aborted: string[];
}

export const fake: FakeCalls = { calls: [], aborted: [] };

/**
 * The test kind, put first in the registry (so it wins over a real HttpRequest). Inputs: mode
 * 'ok' | 'fail' | 'config' | 'hang' | 'skip'; failTimes (mode fail: attempts that fail before one succeeds);
 * value (echoed as output.value).
 */
const testKind: StepKindDefinition = {
  kind: 'HttpRequest',
  label: 'Test step',
  description: 'A step of the runner tests.',
  integrationConnectors: null,
  inputs: [],
  outputs: [{ name: 'value', label: 'Value' }],
  sideEffects: true,
  secretInputs: ['secret'],
  inputOptions: () => Promise.resolve({}),
  validate: () => null,
  preview: () => Promise.resolve({ summary: 'test' }),
  async run(env, step): Promise<Record<string, InputValue>> {
    fake.calls.push({ stepId: step.id, attempt: env.attempt, key: env.idempotencyKey, inputs: step.inputs });
    const mode = step.inputs.mode ?? 'ok';
    if (mode === 'config') throw configError('The test step is misconfigured.');
    if (mode === 'skip') return { skipped: true, reason: 'nothing to send' };
    if (mode === 'fail' && env.attempt <= Number(step.inputs.failTimes ?? 99))
      throw transientError(`Temporary failure ${env.attempt}.`);
    if (mode === 'hang')
      await new Promise<void>((_, reject) =>
        env.signal.addEventListener('abort', () => {
          fake.aborted.push(step.id);
          reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        }),
      );
    env.progress(`working on ${step.id}`);
    await env.log('INFO', `test step ${step.id} ran`);
    return { value: step.inputs.value ?? null, attempt: env.attempt };
  },
};

export function installTestKind(): void {
  const kinds = stepKinds();
  if (!kinds.includes(testKind)) kinds.unshift(testKind);
  fake.calls = [];
  fake.aborted = [];
}

export interface TestStep {
  id?: string;
  name?: string;
  inputs?: Record<string, InputValue>;
  policy?: Partial<StepPolicy>;
}

export interface TestDefinition {
  accountId: string;
  createdBy: string;
  name?: string;
  steps: TestStep[];
  triggerType?: 'Manual' | 'Schedule' | 'AfterSync';
  schedulePattern?: string | null;
  nextRunAt?: string | null;
  triggerIntegrationId?: string | null;
  newRowsOnly?: boolean;
  runTimeoutSeconds?: number;
}

/** Writes a definition with its steps; answers its id and the step ids in order. */
export async function insertDefinition(t: TestApp, d: TestDefinition): Promise<{ id: string; stepIds: string[] }> {
  const id = newId();
  const at = t.clock.now().toISOString();
  await t.deps.db
    .insertInto('automation_definitions')
    .values({
      id,
      account_id: d.accountId,
      name: d.name ?? 'Test automation',
      description: '',
      trigger_type: d.triggerType ?? 'Manual',
      schedule: d.schedulePattern ? JSON.stringify({ type: 'Scheduled', cron: d.schedulePattern }) : null,
      schedule_pattern: d.schedulePattern ?? null,
      next_run_at: d.nextRunAt ?? null,
      trigger_integration_id: d.triggerIntegrationId ?? null,
      trigger_new_rows_only: d.newRowsOnly ? 1 : 0,
      run_timeout_seconds: d.runTimeoutSeconds ?? 3_600,
      run_counter: 0,
      created_by: d.createdBy,
      created_at: at,
      modified_at: at,
    })
    .execute();
  // Step ids are unique across definitions: `s1` becomes `s1_<definition>` (placeholders too).
  const suffix = id.replace(/[^\w]/g, '').slice(-8);
  const names = d.steps.map((step, position) => step.id ?? `s${position + 1}`);
  const real = (name: string) => `${name}_${suffix}`;
  const inputsText = (inputs: Record<string, InputValue> | undefined) =>
    names.reduce(
      (text, name) => text.split(`steps.${name}.`).join(`steps.${real(name)}.`),
      JSON.stringify(inputs ?? {}),
    );
  for (const [position, step] of d.steps.entries()) {
    const stepId = real(names[position] as string);
    await t.deps.db
      .insertInto('automation_steps')
      .values({
        id: stepId,
        definition_id: id,
        position,
        name: step.name ?? `Step ${position + 1}`,
        kind: 'HttpRequest',
        integration_id: null,
        inputs: inputsText(step.inputs),
        policy: JSON.stringify({ ...DEFAULT_STEP_POLICY, backoffSeconds: 0, ...step.policy }),
        created_at: at,
        modified_at: at,
      })
      .execute();
  }
  const rows = await t.deps.db
    .selectFrom('automation_steps')
    .select('id')
    .where('definition_id', '=', id)
    .orderBy('position')
    .execute();
  return { id, stepIds: rows.map((r) => r.id) };
}

export async function triggerRun(t: TestApp, cookie: string, definitionId: string): Promise<AutomationRun> {
  const res = await call<AutomationRun>(t.server, 'POST', `/api/automations/definitions/${definitionId}/trigger`, {
    cookie,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function runDetail(t: TestApp, cookie: string, runId: string): Promise<AutomationRunDetail> {
  const res = await call<AutomationRunDetail>(t.server, 'GET', `/api/automations/${runId}`, { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Polls the run until it has ended (the worker runs in the background). */
export async function endedRun(t: TestApp, cookie: string, runId: string): Promise<AutomationRunDetail> {
  await expect
    .poll(async () => (await runDetail(t, cookie, runId)).endedAt, { timeout: 20_000, interval: 50 })
    .not.toBeNull();
  return runDetail(t, cookie, runId);
}

/**
 * kill -9 of the real server while an automation runs: after the restart the run's lease expires,
 * the new process takes it over and resumes at the first step without a saved output. Finished
 * steps never run again and no step's effect happens twice: the receiver deduplicates by
 * Idempotency-Key as a real API does, and counts how often each key came.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AutomationRun, AutomationRunDetail } from '../../src/shared/automations';
import type { Integration, IntegrationDefinition } from '../../src/shared/integrations';
import { Client, signIn, sleep, waitFor } from './client';
import { startServer } from './server-process';
import { insertHttpAutomation, receiverConfiguration, startReceiver, type Receiver } from './automation-peers';

vi.setConfig({ testTimeout: 240_000 });
const ENV = { AUTOMATION_LEASE_SECONDS: '1', CONNECTOR_PRIVATE_NETWORKS: 'true' };
const STEPS = 6;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(250);
});
afterAll(() => receiver.close());

async function world() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-crash-auto-'));
  const client = new Client(await startServer(dataDir, ENV));
  onTestFinished(async () => {
    await client.server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  await signIn(client, 'owner@example.com');
  const me = await client.ok<{ id: string; currentAccountId: string }>('GET', '/api/me');
  const definitions = await client.ok<IntegrationDefinition[]>('GET', '/api/integration_definitions');
  const rest = definitions.find((d) => d.name === 'REST API');
  if (!rest) throw new Error('No REST API definition');
  const integration = await client.ok<Integration>(
    'POST',
    '/api/integrations',
    {
      integrationDefinitionId: rest.id,
      name: 'Receiver',
      schemaName: 'receiver',
      configuration: receiverConfiguration(receiver.baseUrl),
    },
    201,
  );
  return { dataDir, client, owner: { accountId: me.currentAccountId, userId: me.id }, integration };
}

const runKeys = (runId: string) => [...receiver.received.keys()].filter((k) => k.startsWith(`${runId}:`));

describe('kill -9 during an automation run', () => {
  it('resumes at the first unfinished step after each kill; no step runs twice, no effect happens twice', async () => {
    const { dataDir, client, owner, integration } = await world();
    const automation = insertHttpAutomation(dataDir, owner, integration.id, STEPS);
    const run = await client.ok<AutomationRun>(
      'POST',
      `/api/automations/definitions/${automation.definitionId}/trigger`,
    );
    // Kill while step 2's request is in flight, then while step 4's is, then between answers.
    for (const step of [2, 4, 5]) {
      const stepId = automation.stepIds[step - 1] as string;
      await waitFor(`step ${step} in flight`, () =>
        Promise.resolve(runKeys(run.id).some((k) => k.startsWith(`${run.id}:${stepId}:`)) ? true : null),
      );
      // Step 5: after its answer came back, before (or while) the runner saves it.
      if (step === 5) await sleep(260);
      await client.server.kill();
      client.server = await startServer(dataDir, ENV);
    }
    const done = await waitFor('the run to end', async () => {
      const detail = await client.ok<AutomationRunDetail>('GET', `/api/automations/${run.id}`);
      return detail.endedAt ? detail : null;
    });
    expect(done.status, JSON.stringify(done, null, 1)).toBe('Completed');
    expect(done.steps.map((s) => s.status)).toEqual(Array(STEPS).fill('Completed'));
    // One key per step: every step ran one attempt, the interrupted ones continued theirs.
    const keys = runKeys(run.id);
    expect(keys.sort()).toEqual(automation.stepIds.map((id) => `${run.id}:${id}:1`).sort());
    for (const step of done.steps) expect(step.attempts.map((a) => a.attempt)).toEqual([1]);
    // Each effect once; a key came again only for a step cut off mid-request (three kills at most).
    for (const key of keys) expect(receiver.effects.has(key)).toBe(true);
    const repeats = keys.reduce((sum, key) => sum + (receiver.received.get(key) ?? 0) - 1, 0);
    expect(repeats).toBeLessThanOrEqual(3);
    // Steps 1 and 3 finished before a kill: sent exactly once.
    for (const index of [0, 2]) expect(receiver.received.get(`${run.id}:${automation.stepIds[index]}:1`)).toBe(1);
    const logs = await client.ok<{ message: string }[]>('GET', `/api/automations/${run.id}/logs`);
    expect(logs.map((l) => l.message)).toContain(
      'The run was taken over after its worker stopped; it resumes at its first unfinished step.',
    );
  });

  it('a clean stop (SIGTERM) marks nothing failed: the run resumes at the next start', async () => {
    const { dataDir, client, owner, integration } = await world();
    const automation = insertHttpAutomation(dataDir, owner, integration.id, 3, 'Stopped');
    const run = await client.ok<AutomationRun>(
      'POST',
      `/api/automations/definitions/${automation.definitionId}/trigger`,
    );
    await waitFor('step 2 in flight', () =>
      Promise.resolve(runKeys(run.id).some((k) => k.includes(`:${automation.stepIds[1]}:`)) ? true : null),
    );
    await client.server.stop();
    client.server = await startServer(dataDir, ENV);
    const done = await waitFor('the run to end', async () => {
      const detail = await client.ok<AutomationRunDetail>('GET', `/api/automations/${run.id}`);
      return detail.endedAt ? detail : null;
    });
    expect(done.status).toBe('Completed');
    expect(runKeys(run.id).sort()).toEqual(automation.stepIds.map((id) => `${run.id}:${id}:1`).sort());
    for (const key of runKeys(run.id)) expect(receiver.effects.has(key)).toBe(true);
  });
});

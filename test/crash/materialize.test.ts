/**
 * kill -9 of the real server at every point of an automation's Materialize write (the write
 * journal's points: before the warehouse commit, after it, after the checkpoint, after the metadata),
 * then a normal restart: the run is taken over when its lease expires and ends Completed, the
 * appended rows are there exactly once (never half, never twice), and both stores agree.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AutomationDefinition, AutomationRun, AutomationRunDetail } from '../../src/shared/automations';
import { Client, signIn, sleep, waitFor } from './client';
import { startServer, type ServerProcess } from './server-process';
import { expectStoresAgree, snapshot } from './stores';
import { createTable } from './workspace';

vi.setConfig({ testTimeout: 300_000 });
const ENV = { AUTOMATION_LEASE_SECONDS: '1' };
const POINTS = ['before-commit', 'committed', 'checkpointed', 'recorded'] as const;
const SOURCE_ROWS = 5_000;

async function world() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-crash-materialize-'));
  const client = new Client(await startServer(dataDir, ENV));
  onTestFinished(async () => {
    await client.server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  await signIn(client, 'owner@example.com');
  const source = await createTable(client, 'Source', SOURCE_ROWS);
  const target = await createTable(client, 'Target', 10);
  const definition = await client.ok<AutomationDefinition>(
    'POST',
    '/api/automations/definitions',
    { name: 'Copy rows', description: '' },
    201,
  );
  await client.ok(
    'POST',
    `/api/automations/definitions/${definition.id}/steps`,
    {
      kind: 'Materialize',
      inputs: { source: `StaticTable:${source.id}`, target: `StaticTable:${target.id}`, mode: 'Append' },
    },
    201,
  );
  return { client, definitionId: definition.id, targetKey: `StaticTable:${target.id}` };
}

async function restart(client: Client, crashAt?: string): Promise<ServerProcess> {
  await client.server.kill();
  client.server = await startServer(client.server.dataDir, {
    ...ENV,
    ...(crashAt ? { WORKSPACE_CRASH_AT: crashAt } : {}),
  });
  return client.server;
}

describe('kill -9 during a Materialize step', () => {
  it('at every point of its write: after the restart the run completes and the rows are appended exactly once', async () => {
    const { client, definitionId, targetKey } = await world();
    let expected = 10;
    for (const point of POINTS) {
      const server = await restart(client, `automation.materialized:${point}`);
      const run = await client.ok<AutomationRun>('POST', `/api/automations/definitions/${definitionId}/trigger`);
      const end = await Promise.race([server.exited, sleep(60_000).then(() => null)]);
      expect(end, `the server did not reach ${point}:\n${server.output()}`).toEqual({ code: null, signal: 'SIGKILL' });

      await restart(client);
      const done = await waitFor(`run after ${point}`, async () => {
        const detail = await client.ok<AutomationRunDetail>('GET', `/api/automations/${run.id}`);
        return detail.endedAt ? detail : null;
      });
      expect(done.status, `${point}: ${JSON.stringify(done, null, 1)}`).toBe('Completed');
      expected += SOURCE_ROWS;
      expect(done.steps[0]?.output?.rowCount, point).toBe(SOURCE_ROWS);
      const after = await snapshot(client);
      expect(after[targetKey]?.rows, `${point}: rows in the target`).toBe(expected);
    }
    await client.server.stop();
    await expectStoresAgree(client.server.dataDir);
  });
});

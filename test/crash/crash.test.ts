/**
 * kill -9 of the real server at chosen points of every write that spans the warehouse (DuckDB) and
 * the metadata store (SQLite): after a restart every account opens, what was saved before is
 * identical (a checksum of every table's rows, downloaded through the server), an interrupted write
 * is either wholly there or wholly absent, interrupted runs are Failed with a line saying why, and
 * with the server stopped both stores agree and nothing half made is left.
 *
 * Points are named in src/server/durability/crash-points.ts (WORKSPACE_CRASH_AT); kills at random
 * moments come from outside. CRASH_REPEATS sets how often each point is tried (default 2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Integration } from '../../src/shared/integrations';
import type { Model } from '../../src/shared/models';
import { Client, signIn, sleep } from './client';
import { startServer, type ServerProcess } from './server-process';
import { startSourceApi, type SourceApi } from './source-api';
import { expectStoresAgree, snapshot, type Snapshot } from './stores';
import {
  addFormula,
  createModel,
  createRestIntegration,
  createTable,
  csvOf,
  logLines,
  runEnd,
  runs,
  startRefresh,
  syncToEnd,
  uploadCsv,
} from './workspace';

const REPEATS = Number(process.env.CRASH_REPEATS ?? 2);
// Each test starts the real server three to five times (about 9 s on a quiet 2-core machine); the
// browser suite's 60 s leaves no room for a loaded one. A hang still fails, at the server's own
// 60 s waits (died, waitFor), well before this.
vi.setConfig({ testTimeout: 240_000 });
const JOURNAL_POINTS = ['before-commit', 'committed', 'checkpointed', 'recorded'] as const;

let source: SourceApi;
beforeAll(async () => {
  source = await startSourceApi();
});
afterAll(() => source.close());

/** A data folder and a signed-in owner on a running server, for one test. */
async function world(): Promise<{ dataDir: string; client: Client }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-crash-'));
  const client = new Client(await startServer(dataDir));
  onTestFinished(async () => {
    await client.server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  await signIn(client, 'owner@example.com');
  return { dataDir, client };
}

/** Starts the server again on the same data (optionally set to kill itself at a point). */
async function restart(client: Client, crashAt?: string): Promise<ServerProcess> {
  await client.server.kill();
  client.server = await startServer(client.server.dataDir, crashAt ? { WORKSPACE_CRASH_AT: crashAt } : {});
  return client.server;
}

/** Waits for a server set to kill itself to have done so. */
async function died(server: ServerProcess): Promise<void> {
  const end = await Promise.race([server.exited, sleep(60_000).then(() => null)]);
  expect(end, `the server did not reach its crash point:\n${server.output()}`).toEqual({
    code: null,
    signal: 'SIGKILL',
  });
}

/** At the end of a test: a clean stop, then both stores checked with nothing running. */
async function expectStoresAgreeAtEnd(client: Client): Promise<void> {
  await client.server.stop();
  await expectStoresAgree(client.server.dataDir);
}

/**
 * The points of a journaled write (write-journal.ts), and whether its change is there after a kill
 * at each: from the commit of the warehouse transaction on, it is.
 */
function journalPoints(kind: string): { crashAt: string; lands: boolean }[] {
  return JOURNAL_POINTS.map((point) => ({ crashAt: `${kind}:${point}`, lands: point !== 'before-commit' }));
}

function only(snap: Snapshot, key: string): Snapshot {
  return Object.fromEntries(Object.entries(snap).filter(([k]) => k !== key));
}

function datasetKey(integration: Integration): string {
  return `IntegrationDataset:${integration.datasets[0]?.id ?? ''}`;
}

describe('kill -9 around syncs', () => {
  it('idle after a first sync and after an Overwrite sync: the data stays as synced', async () => {
    const { client } = await world();
    source.serve({ generation: 1, records: 1_200 });
    const integration = await createRestIntegration(client, source.baseUrl);
    for (let round = 1; round <= REPEATS + 1; round += 1) {
      source.serve({ generation: round, records: 1_000 + round * 100 });
      const run = await syncToEnd(client, integration.id);
      const before = await snapshot(client);
      expect(Object.values(before).find((t) => t.name === 'Items')?.rows).toBe(1_000 + round * 100);
      await sleep(100 + Math.random() * 1_500);
      await restart(client);
      expect(await snapshot(client)).toEqual(before);
      expect((await runs(client, integration.id)).find((r) => r.id === run.id)?.status).toBe('Completed');
    }
    await expectStoresAgreeAtEnd(client);
  });

  it('in the middle of a sync: the dataset keeps its rows, the run is Failed and says why', async () => {
    const { client } = await world();
    source.serve({ generation: 1, records: 800 });
    const integration = await createRestIntegration(client, source.baseUrl);
    await syncToEnd(client, integration.id);
    const before = await snapshot(client);
    for (let round = 0; round < REPEATS + 1; round += 1) {
      // 40 pages of 500 records, 40 ms each: the kill lands while records are read and staged.
      source.serve({ generation: 2, records: 20_000, delayMs: 40 });
      const pagesBefore = source.pagesServed();
      const runId = await startRefresh(client, integration.id);
      const until = Date.now() + 200 + Math.random() * 1_000;
      while (Date.now() < until && source.pagesServed() - pagesBefore < 30) await sleep(10);
      await restart(client);
      expect(await snapshot(client)).toEqual(before);
      const run = await runEnd(client, integration.id, runId);
      expect(run.status).toBe('Failed');
      expect((await logLines(client, integration.id, runId)).join('\n')).toMatch(/server (stopped|restarted)/i);
    }
    await expectStoresAgreeAtEnd(client);
  });

  const swapPoints = [{ crashAt: 'sync:rows-numbered', lands: false }, ...journalPoints('integration.dataset-synced')];
  for (const { crashAt, lands } of swapPoints) {
    it(`at the sync's swap, ${crashAt}: the dataset is all old or all new, matching its metadata`, async () => {
      const { client } = await world();
      source.serve({ generation: 1, records: 700 });
      const integration = await createRestIntegration(client, source.baseUrl);
      await syncToEnd(client, integration.id);
      const detail = await client.ok<Integration>('GET', `/api/integrations/${integration.id}`);
      const key = datasetKey(detail);
      for (let round = 0; round < REPEATS; round += 1) {
        const before = await snapshot(client);
        // Each round a new generation, so the rows after the kill tell which one landed.
        source.serve({ generation: round + 2, records: 600 + round });
        const server = await restart(client, crashAt);
        const runId = await startRefresh(client, integration.id);
        await died(server);
        await restart(client);
        const after = await snapshot(client);
        expect(only(after, key)).toEqual(only(before, key));
        expect(after[key]?.rows === 600 + round).toBe(lands);
        if (!lands) expect(after[key]).toEqual(before[key]);
        const run = await runEnd(client, integration.id, runId);
        expect(run.status).toBe('Failed');
        const log = (await logLines(client, integration.id, runId)).join('\n');
        expect(log).toMatch(/The server stopped/);
        if (lands) expect(log).toContain(`the table has ${600 + round} row(s).`);
      }
      await expectStoresAgreeAtEnd(client);
    });
  }
});

describe('kill -9 around static tables', () => {
  it('in the middle of a CSV import: the table is all old or all new, and the upload is swept', async () => {
    const { client } = await world();
    const table = await createTable(client, 'Imported', 10);
    const other = await createTable(client, 'Untouched', 50);
    expect((await uploadCsv(client, table.id, csvOf(1, 2_000))).status).toBe(200);
    const big = csvOf(2, 400_000);
    // How long a whole import takes here, so the kills spread over it.
    const timed = await createTable(client, 'Timing', 1);
    const started = Date.now();
    expect((await uploadCsv(client, timed.id, big)).status).toBe(200);
    const took = Date.now() - started;
    await client.ok('DELETE', `/api/static-tables/${timed.id}`, undefined, 204);
    let before = await snapshot(client);
    const key = `StaticTable:${table.id}`;
    for (let round = 0; round < REPEATS + 2; round += 1) {
      const upload = uploadCsv(client, table.id, big).catch(() => null);
      await sleep(Math.random() * took * 1.1);
      await restart(client);
      await upload;
      const after = await snapshot(client);
      expect(only(after, key)).toEqual(only(before, key));
      const state = after[key];
      if (state?.rows === 400_000) expect(state.columns).toContain('only_in_2');
      else expect(state).toEqual(before[key]);
      expect(after[`StaticTable:${other.id}`]).toEqual(before[`StaticTable:${other.id}`]);
      before = after;
      if (state?.rows === 400_000) {
        // Back to the old rows, so the next round can tell again.
        expect((await uploadCsv(client, table.id, csvOf(1, 2_000))).status).toBe(200);
        before = await snapshot(client);
      }
    }
    await expectStoresAgreeAtEnd(client);
  });

  const importPoints = [{ crashAt: 'csv-import:read', lands: false }, ...journalPoints('static-table.saved')];
  for (const { crashAt, lands } of importPoints) {
    it(`at an import's commit, ${crashAt}: rows and columns change together`, async () => {
      const { client } = await world();
      const table = await createTable(client, 'Imported', 10);
      expect((await uploadCsv(client, table.id, csvOf(1, 300))).status).toBe(200);
      const key = `StaticTable:${table.id}`;
      for (let round = 0; round < REPEATS; round += 1) {
        const before = await snapshot(client);
        const server = await restart(client, crashAt);
        void uploadCsv(client, table.id, csvOf(round + 2, 500 + round)).catch(() => null);
        await died(server);
        await restart(client);
        const after = await snapshot(client);
        expect(after[key]?.rows === 500 + round).toBe(lands);
        if (lands) expect(after[key]?.columns).toContain(`only_in_${round + 2}`);
        else expect(after).toEqual(before);
      }
      await expectStoresAgreeAtEnd(client);
    });
  }

  const editPoints = [{ crashAt: 'static-table:edit-copied', lands: false }, ...journalPoints('static-table.saved')];
  for (const { crashAt, lands } of editPoints) {
    it(`at an edit that adds a column and changes cells, ${crashAt}: both or neither`, async () => {
      const { client } = await world();
      const table = await createTable(client, 'Edited', 30);
      const key = `StaticTable:${table.id}`;
      for (let round = 0; round < REPEATS; round += 1) {
        const before = await snapshot(client);
        const server = await restart(client, crashAt);
        // One change that alters the columns and the rows works on a copy, swapped in (changes.ts).
        void client
          .call('POST', `/api/static-tables/${table.id}/changes`, {
            changes: [
              { kind: 'addColumn', column: { displayName: `Added ${round}` } },
              { kind: 'cells', edits: [{ rowId: round + 1, columnKey: table.columns[1]?.columnKey, value: '999' }] },
            ],
          })
          .catch(() => null);
        await died(server);
        await restart(client);
        const after = await snapshot(client);
        expect(after[key]?.columns.includes(`Added ${round}`)).toBe(lands);
        expect(after[key]?.checksum === before[key]?.checksum).toBe(!lands);
        if (!lands) expect(after).toEqual(before);
      }
      await expectStoresAgreeAtEnd(client);
    });
  }
});

describe('kill -9 around publishing and deleting', () => {
  for (const point of JOURNAL_POINTS) {
    const lands = point !== 'before-commit';
    it(`at a publish, ${point}: the model shows one whole version and its data`, async () => {
      const { client } = await world();
      const table = await createTable(client, 'Orders', 40);
      let model: Model = await createModel(client, table);
      for (let round = 0; round < REPEATS; round += 1) {
        const amount = model.columns.find((c) => c.displayName === 'Amount')?.columnKey ?? '';
        await addFormula(client, model.id, `Times ${round}`, `[${amount}] & "-${round}"`);
        const before = await snapshot(client);
        const beforeModel = await client.ok<Model>('GET', `/api/models/${model.id}`);
        const server = await restart(client, `model.version-activated:${point}`);
        void client.call('POST', `/api/models/${model.id}/publish`, {}).catch(() => null);
        await died(server);
        await restart(client);
        const after = await snapshot(client);
        model = await client.ok<Model>('GET', `/api/models/${model.id}`);
        const published = model.versionNumber !== beforeModel.versionNumber;
        expect(published).toBe(lands);
        expect(model.status).toBe('Active');
        if (!published) {
          expect(after).toEqual(before);
          model = await client.ok<Model>('POST', `/api/models/${model.id}/publish`, {});
        } else {
          expect(model.columns.map((c) => c.displayName)).toContain(`Times ${round}`);
        }
      }
      await expectStoresAgreeAtEnd(client);
    });

    it(`at a delete, ${point}: a table, a model or an integration is whole or gone`, async () => {
      const { client } = await world();
      source.serve({ generation: 1, records: 300 });
      const integration = await createRestIntegration(client, source.baseUrl);
      await syncToEnd(client, integration.id);
      const table = await createTable(client, 'Orders', 40);
      const spare = await createTable(client, 'Spare', 5);
      const model = await createModel(client, spare, 'On spare');
      const targets = [
        { kind: 'static-table.deleted', url: `/api/static-tables/${table.id}`, list: `StaticTable:${table.id}` },
        { kind: 'model.deleted', url: `/api/models/${model.id}`, list: `ModelVersion:${model.versionId}` },
        { kind: 'integration.deleted', url: `/api/integrations/${integration.id}`, list: 'IntegrationDataset:' },
      ];
      for (const target of targets) {
        const before = await snapshot(client);
        const server = await restart(client, `${target.kind}:${point}`);
        void client.call('DELETE', target.url).catch(() => null);
        await died(server);
        await restart(client);
        const after = await snapshot(client);
        const gone = !Object.keys(after).some((k) => k.startsWith(target.list));
        expect(gone, target.kind).toBe(lands);
        const others = Object.fromEntries(Object.entries(before).filter(([k]) => !k.startsWith(target.list)));
        expect(after, target.kind).toEqual(gone ? others : before);
        const status = (await client.call('GET', target.url)).status;
        expect(status, target.kind).toBe(gone ? 404 : 200);
        if (!gone) await client.ok('DELETE', target.url, undefined, 204);
      }
      await expectStoresAgreeAtEnd(client);
    });
  }
});

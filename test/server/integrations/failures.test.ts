import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import type { Notification } from '../../../src/shared/notifications';
import { ConnectorError, type ReadItem } from '../../../src/server/modules/integrations/connectors/types';
import { expectError, makeTeam, signIn, testClock } from '../helpers';
import { loadConfig } from '../../../src/server/config';
import { appWithTeam } from '../static-tables/helpers';
import {
  api,
  createIntegration,
  datasetRows,
  expectCompleted,
  ok,
  sampleIntegration,
  selectDatasets,
  syncNow,
  type Integration,
  type Job,
  type RunLog,
} from './helpers';
import { customDefinition, registerTestSource } from './test-connector';

const at = (day: number) => `2026-01-0${day}T00:00:00Z`;

describe('failing syncs', () => {
  it('a connector failing mid-sync leaves the old rows and state, the run Failed, logs saying why', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    let mode: 'ok' | 'fail' = 'ok';
    const source = registerTestSource(t, 'airbyte', async function* (): AsyncIterable<ReadItem> {
      yield { kind: 'log', level: 'INFO', message: 'Reading items.' };
      yield {
        kind: 'records',
        records: [
          { id: 1, label: 'a', seen_at: at(1) },
          { id: 2, label: 'b', seen_at: at(2) },
        ],
      };
      if (mode === 'fail') {
        yield { kind: 'records', records: [{ id: 3, label: 'c', seen_at: at(3) }] };
        throw new ConnectorError('The source closed the connection after 3 records.', 'TransientError');
      }
      yield { kind: 'state', state: { cursor: at(2) } };
    });
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Items source',
        schemaName: 'items_source',
        configuration: { host: 'h', password: 'p' },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, {
      Items: { syncType: 'Incremental', dataIngestionType: 'Append' },
    });
    expectCompleted(await syncNow(t, cookie, integration.id));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    const datasetId = detail.datasets[0]!.id;
    const before = await datasetRows(t, cookie, datasetId);
    expect(before.map((r) => r.label)).toEqual(['a', 'b']);

    mode = 'fail';
    t.clock.advance(60_000);
    const failed = await syncNow(t, cookie, integration.id);
    expect(failed.status).toBe('Failed');
    expect(source.requests[1]!.state).toEqual({ cursor: at(2) });
    const progress = failed.attempts[0]!.progress.datasets[0]!;
    expect(progress.status).toBe('Failed');
    expect(progress.errors).toEqual([
      { type: 'TransientError', message: 'The source closed the connection after 3 records.' },
    ]);
    expect(failed.logs).toContain('[INFO] Items: Reading items.');
    expect(failed.logs.join('\n')).toMatch(
      /\[ERROR\] Items: TransientError: The source closed the connection after 3 records\. Its previous data is unchanged\./,
    );
    expect(failed.logs.at(-1)).toBe('[ERROR] Sync failed: 1 dataset(s) could not be synced.');
    expect((await datasetRows(t, cookie, datasetId)).map((r) => r.label)).toEqual(['a', 'b']);
    // No staging table is left behind.
    const tables = await t.deps.warehouse.forAccount(team.accountId).all({
      sql: "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'items_source'",
      parameters: [],
    });
    expect(tables.map((r) => r.table_name)).toEqual(['items']);

    // The failed run kept no state: the next read starts from the last successful one.
    mode = 'ok';
    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, integration.id));
    expect(source.requests[2]!.state).toEqual({ cursor: at(2) });
    // This source ignores the state and sends both records again. Append keeps each new one; 'b' sits
    // at the saved cursor (the inclusive boundary) and is stored already, so it is not added twice.
    expect((await datasetRows(t, cookie, datasetId)).map((r) => r.label)).toEqual(['a', 'b', 'a']);

    // Jobs filter by status and sort.
    const onlyFailed = ok(
      await api<{ count: number; data: Job[] }>(
        t,
        cookie,
        'GET',
        `/api/integrations/${integration.id}/jobs?Page=1&PageSize=10&Status=Failed`,
      ),
    );
    expect(onlyFailed.count).toBe(1);
    expect(onlyFailed.data[0]!.id).toBe(failed.id);
    const oldestFirst = ok(
      await api<{ data: Job[]; count: number; hasMore: boolean }>(
        t,
        cookie,
        'GET',
        `/api/integrations/${integration.id}/jobs?Page=1&PageSize=2&SortBy=createdAt&SortDirection=Ascending`,
      ),
    );
    expect(oldestFirst.count).toBe(3);
    expect(oldestFirst.hasMore).toBe(true);
    expect(oldestFirst.data.map((j) => j.status)).toEqual(['Completed', 'Failed']);
    expectError(await api(t, cookie, 'GET', `/api/integrations/${integration.id}/jobs/nope/logs`), 404);
  });

  it('writes batches while reading on, in the order read; a batch the warehouse refuses fails the run cleanly', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    // More records than one batch holds, in pages, so several batches are written while reading.
    const total = 45_000;
    let badAt: number | null = null;
    registerTestSource(t, 'airbyte', async function* (): AsyncIterable<ReadItem> {
      for (let start = 0; start < total; start += 1_000) {
        const records = Array.from({ length: 1_000 }, (_, i) => {
          const id = start + i + 1;
          return { id, label: `item ${id}`, seen_at: id === badAt ? 'not a time' : at(1 + (id % 8)) };
        });
        yield { kind: 'records', records };
      }
    });
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Many items',
        schemaName: 'many_items',
        configuration: { host: 'h', password: 'p' },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, {
      Items: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    expectCompleted(await syncNow(t, cookie, integration.id));
    const warehouse = t.deps.warehouse.forAccount(team.accountId);
    const check = async () =>
      (
        await warehouse.all({
          sql:
            'SELECT count(*)::DOUBLE AS n, count(*) FILTER (WHERE _row_id <> id)::DOUBLE AS misplaced ' +
            'FROM many_items.items',
          parameters: [],
        })
      )[0];
    expect(await check()).toEqual({ n: total, misplaced: 0 });

    // A value the DateTime column cannot hold, in the second batch: the write fails mid-read.
    badAt = 30_000;
    t.clock.advance(60_000);
    const failed = await syncNow(t, cookie, integration.id);
    expect(failed.status).toBe('Failed');
    expect(failed.attempts[0]!.progress.datasets[0]!.status).toBe('Failed');
    expect(failed.logs).toContain(
      '[WARN] Items: Column seen_at (timestamptz): 1 value does not fit; the sync stops and the dataset keeps its previous data.',
    );
    expect(failed.logs).toContain(
      "[ERROR] Items: SystemError: A record does not fit the dataset's columns: column seen_at (timestamptz): " +
        '1 value does not fit (such as "not a time"). ' +
        'If the source changed its types, refresh the datasets. Its previous data is unchanged.',
    );
    expect(await check()).toEqual({ n: total, misplaced: 0 });
    const tables = await warehouse.all({
      sql: "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'many_items'",
      parameters: [],
    });
    expect(tables.map((r) => r.table_name)).toEqual(['items']);
  });

  it('takes a batch of 150,000 records in one piece (once a call-stack overflow)', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    const total = 150_000;
    registerTestSource(t, 'airbyte', async function* (): AsyncIterable<ReadItem> {
      yield {
        kind: 'records',
        records: Array.from({ length: total }, (_, i) => ({ id: i + 1, label: `item ${i + 1}`, seen_at: at(1) })),
      };
    });
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'One big batch',
        schemaName: 'big_batch',
        configuration: { host: 'h', password: 'p' },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, {
      Items: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, cookie, integration.id);
    expectCompleted(run);
    expect(run.recordsProcessed).toBe(total);
  });

  it('refuses a second trigger while a sync runs', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const definition = await customDefinition(t);
    registerTestSource(t, 'airbyte', async function* (): AsyncIterable<ReadItem> {
      await gate;
      yield { kind: 'records', records: [{ id: 1, label: 'a', seen_at: at(1) }] };
    });
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Slow',
        schemaName: 'slow',
        configuration: { host: 'h', password: 'p' },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, { Items: {} });
    ok(await api(t, cookie, 'POST', `/api/integrations/${integration.id}/trigger`));
    const second = await api(t, cookie, 'POST', `/api/integrations/${integration.id}/trigger`);
    expect(expectError(second, 409)).toBe('A sync of this integration is already running.');
    const status = ok(
      await api<{ isRunning: boolean }>(t, cookie, 'GET', `/api/integrations/${integration.id}/job_status`),
    );
    expect(status.isRunning).toBe(true);
    release();
    await t.services.integrations.idle();
    const after = ok(
      await api<{ isRunning: boolean; status: string }>(
        t,
        cookie,
        'GET',
        `/api/integrations/${integration.id}/job_status`,
      ),
    );
    expect(after).toMatchObject({ isRunning: false, status: 'Completed' });
  });

  it('marks runs a crash left Running as Failed when the app starts again on the same data folder', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-test-'));
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dataDir });
    const clock = testClock();
    try {
      const first = await buildApp(config, { logger: false, clock: clock.now });
      const t1 = { ...first, dataDir, clock, close: async () => undefined };
      const team = await makeTeam(t1);
      const integration = await sampleIntegration(t1, team.owner.cookie);
      await first.deps.db
        .insertInto('integration_runs')
        .values({
          id: 'crashed-run',
          integration_id: integration.id,
          kind: 'Sync',
          status: 'Running',
          full_refresh_datasets: null,
          created_at: clock.now().toISOString(),
          started_at: clock.now().toISOString(),
          ended_at: null,
          records_processed: 0,
          bytes_processed: 0,
        })
        .execute();
      await first.server.close();

      const second = await buildApp(config, { logger: false, clock: clock.now });
      try {
        const t2 = { ...second, dataDir, clock, close: async () => undefined };
        const cookie = await signIn(t2, 'owner@example.com');
        const jobs = ok(await api<{ data: Job[] }>(t2, cookie, 'GET', `/api/integrations/${integration.id}/jobs`));
        expect(jobs.data[0]).toMatchObject({ id: 'crashed-run', status: 'Failed' });
        expect(jobs.data[0]!.endedAt).not.toBeNull();
        const logs = ok(
          await api<RunLog[]>(t2, cookie, 'GET', `/api/integrations/${integration.id}/jobs/crashed-run/logs`),
        );
        expect(logs.map((l) => l.line)).toEqual([
          '[ERROR] The server stopped while this sync was running; the sync did not finish. Datasets it had not saved keep their previous rows.',
        ]);
        // The account's writers are told, as of any failed sync.
        const told = ok(await api<{ data: Notification[] }>(t2, cookie, 'GET', '/api/notifications?PageSize=50'));
        expect(told.data.find((n) => n.kind === 'SyncFailed')).toMatchObject({
          severity: 'Error',
          body: 'The server stopped while this sync was running.',
          target: { type: 'Run', id: 'crashed-run', parentId: integration.id },
        });
        // The integration can sync again.
        await selectDatasets(t2, cookie, integration.id, { products: {} });
        expectCompleted(await syncNow(t2, cookie, integration.id));
      } finally {
        await second.server.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

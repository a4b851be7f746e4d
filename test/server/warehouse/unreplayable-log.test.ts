import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { DATASET_SYNCED } from '../../../src/server/modules/integrations/durable-writes';
import { warehouseFile } from '../../../src/server/warehouse/account-paths';
import { me, signIn, testClock, type TestApp } from '../helpers';
import { api, logsOf, ok, sampleIntegration, type Job } from '../integrations/helpers';
import { createTable, getTable } from '../static-tables/helpers';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * In a process of its own, against the account's warehouse: the write pattern DuckDB 1.5.6 cannot
 * replay (a transaction that changes a table's rows and then renames it), with a write marker in the
 * same log, then SIGKILL before any checkpoint.
 */
const BREAK_THE_LOG = `
import { DuckDBInstance } from '@duckdb/node-api';
const [file, writeId] = process.argv.slice(1);
const instance = await DuckDBInstance.create(file);
const c = await instance.connect();
await c.run("CREATE SCHEMA IF NOT EXISTS s; CREATE TABLE s.stg (r BIGINT, v VARCHAR); INSERT INTO s.stg VALUES (1, 'a'), (2, 'b')");
await c.run("BEGIN; UPDATE s.stg SET r = 5; ALTER TABLE s.stg RENAME TO items; INSERT INTO _workspace.writes VALUES ('" + writeId + "', 'x', '{}'); COMMIT");
process.kill(process.pid, 'SIGKILL');
`;

async function appOn(dataDir: string): Promise<TestApp> {
  const clock = testClock();
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dataDir });
  const app = await buildApp(config, { logger: false, clock: clock.now });
  return { ...app, dataDir, clock, close: () => app.server.close() };
}

describe('a warehouse whose log cannot be replayed', () => {
  it('opens from its last checkpoint, keeps the log aside, fails the interrupted run and says why', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-wal-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));

    const first = await appOn(dataDir);
    const cookie = await signIn(first, 'owner@example.com');
    const accountId = (await me(first, cookie)).currentAccountId ?? '';
    const kept = await createTable(first, cookie, {
      name: 'Kept',
      columns: [{ displayName: 'A' }],
      rows: [['x'], ['y']],
    });
    const integration = await sampleIntegration(first, cookie);
    // A sync whose swap was under way when the server died: its run, and its journal row.
    const at = first.clock.now().toISOString();
    await first.deps.db
      .insertInto('integration_runs')
      .values({
        id: 'interrupted-run',
        integration_id: integration.id,
        kind: 'Sync',
        status: 'Running',
        full_refresh_datasets: null,
        created_at: at,
        started_at: at,
        ended_at: null,
        records_processed: 0,
        bytes_processed: 0,
      })
      .execute();
    await first.deps.db
      .insertInto('warehouse_writes')
      .values({
        id: 'lost-write',
        account_id: accountId,
        kind: DATASET_SYNCED,
        run_id: 'interrupted-run',
        boot_id: 'an-earlier-process',
        created_at: at,
      })
      .execute();
    await first.close();

    const file = warehouseFile(dataDir, accountId);
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', BREAK_THE_LOG, file, 'lost-write'], {
      cwd: ROOT,
    }).catch((error: { signal?: string }) => expect(error.signal).toBe('SIGKILL'));
    expect(fs.existsSync(`${file}.wal`)).toBe(true);

    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const second = await appOn(dataDir);
    onTestFinished(() => second.close());
    const again = await signIn(second, 'owner@example.com');

    // The account reads as of its checkpoint: the table made before is whole.
    expect((await getTable(second, again, kept.id)).rows.map((r) => Object.values(r).at(-1))).toEqual(['x', 'y']);
    const aside = fs.readdirSync(path.dirname(file)).filter((name) => name.includes('.wal.unreplayable-'));
    expect(aside).toHaveLength(1);
    expect(fs.existsSync(`${file}.wal`)).toBe(false);
    expect(logged.mock.calls.flat().join(' ')).toMatch(/could not be replayed.*moved to/s);

    const jobs = ok(await api<{ data: Job[] }>(second, again, 'GET', `/api/integrations/${integration.id}/jobs`));
    expect(jobs.data.find((j) => j.id === 'interrupted-run')?.status).toBe('Failed');
    const lines = (await logsOf(second, again, integration.id, 'interrupted-run')).map((l) => l.line).join('\n');
    expect(lines).toMatch(/log could not be read back/);
    expect(await second.deps.db.selectFrom('warehouse_writes').selectAll().execute()).toEqual([]);
    logged.mockRestore();
  });
});

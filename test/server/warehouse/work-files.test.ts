import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { me, signIn, testClock, type TestApp } from '../helpers';
import { createTable, getTable } from '../static-tables/helpers';

async function appOn(dataDir: string): Promise<TestApp> {
  const clock = testClock();
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dataDir });
  const app = await buildApp(config, { logger: false, clock: clock.now });
  return { ...app, dataDir, clock, close: () => app.server.close() };
}

describe('work files a killed process left', () => {
  it('are removed when the server starts: uploads, sync scratch files, exports and DuckDB spill files', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-work-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const first = await appOn(dataDir);
    const cookie = await signIn(first, 'owner@example.com');
    const accountId = (await me(first, cookie)).currentAccountId ?? '';
    const table = await createTable(first, cookie, { name: 'Kept', columns: [{ displayName: 'A' }], rows: [['x']] });
    await first.close();

    // What kills in the middle of an upload, a sync, an export and a large sort leave.
    const account = path.join(dataDir, 'accounts', accountId);
    const leftovers = [
      path.join(account, 'uploads', 'f1b2.csv'),
      path.join(account, 'scratch', 'syncs', 'run-1', 'batch-0001.ndjson'),
      path.join(account, 'tmp', 'export-1.parquet'),
      path.join(account, 'warehouse.duckdb.tmp', 'duckdb_temp_storage_S32K-0.tmp'),
      path.join(dataDir, 'tmp', 'syncs', 'old-layout.ndjson'),
    ];
    for (const file of leftovers) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.alloc(64 * 1024, 1));
    }

    const second = await appOn(dataDir);
    onTestFinished(() => second.close());
    for (const file of leftovers) expect(fs.existsSync(file), file).toBe(false);
    // What is data stays.
    expect(fs.existsSync(path.join(account, 'warehouse.duckdb'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'app.db'))).toBe(true);
    const again = await signIn(second, 'owner@example.com');
    expect((await getTable(second, again, table.id)).rowCount).toBe(1);
  });
});

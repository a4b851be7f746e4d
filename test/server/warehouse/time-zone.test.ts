import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const probe = path.join(import.meta.dirname, 'fixtures', 'time-zone-probe.ts');
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe('the warehouse time zone', () => {
  it('is UTC whatever zone the server runs in: naive times are UTC instants, days end at UTC midnight', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-tz-'));
    dirs.push(dataDir);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', probe, dataDir], {
      env: { ...process.env, TZ: 'America/New_York' },
    });
    const answer = JSON.parse(stdout) as Record<string, unknown>;
    // The child did run in New York: the fix is the warehouse's, not the test's environment.
    expect(answer.jsTimeZone).toBe('America/New_York');
    expect(answer).toMatchObject({
      zone: 'UTC',
      naive_as_instant: Date.UTC(2024, 0, 5, 10) / 1000,
      day_of_3am_utc: '2024-01-05 00:00:00+00',
    });
  }, 60_000);
});

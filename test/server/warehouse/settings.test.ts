import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { createGate } from '../../../src/server/warehouse/gate';
import { sizeThreadpool, warehouseCallLimit } from '../../../src/server/warehouse/threadpool';
import { sleep } from './helpers';

describe('warehouse settings', () => {
  it('reads memory limit, threads and idle time from the environment, with defaults', () => {
    expect(loadConfig({}).warehouse).toEqual({
      memoryLimit: '1GB',
      threads: Math.min(4, os.availableParallelism()),
      idleMs: 300_000,
    });
    const config = loadConfig({
      WAREHOUSE_MEMORY_LIMIT: '512MiB',
      WAREHOUSE_THREADS: '6',
      WAREHOUSE_IDLE_SECONDS: '30',
    });
    expect(config.warehouse).toEqual({ memoryLimit: '512MiB', threads: 6, idleMs: 30_000 });
  });

  it('stops at start on a memory limit or thread count DuckDB would not take', () => {
    expect(() => loadConfig({ WAREHOUSE_MEMORY_LIMIT: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ WAREHOUSE_MEMORY_LIMIT: 'lots' })).toThrow(/WAREHOUSE_MEMORY_LIMIT must be a size/);
    expect(() => loadConfig({ WAREHOUSE_THREADS: '0' })).toThrow(/WAREHOUSE_THREADS/);
  });

  it('sizes the libuv pool only when the operator has not, and keeps threads free for other work', () => {
    const env: Record<string, string | undefined> = {};
    sizeThreadpool(env);
    expect(env.UV_THREADPOOL_SIZE).toBe('16');
    expect(warehouseCallLimit(env)).toBe(14);
    const chosen = { UV_THREADPOOL_SIZE: '6' };
    sizeThreadpool(chosen);
    expect(chosen.UV_THREADPOOL_SIZE).toBe('6');
    expect(warehouseCallLimit(chosen)).toBe(4);
    expect(warehouseCallLimit({})).toBe(2);
    expect(warehouseCallLimit({ UV_THREADPOOL_SIZE: '1' })).toBe(1);
  });

  it('never lets more calls through the gate than its limit, and runs them all', async () => {
    const gate = createGate(3);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        gate
          .run(async () => {
            running += 1;
            peak = Math.max(peak, running);
            await sleep(5);
            running -= 1;
            if (i === 4) throw new Error('one fails');
            return i;
          })
          .catch(() => -1),
      ),
    );
    expect(peak).toBe(3);
    expect(results).toEqual([0, 1, 2, 3, -1, 5, 6, 7, 8, 9]);
    expect(gate.active).toBe(0);
    expect(gate.waiting).toBe(0);
  });
});

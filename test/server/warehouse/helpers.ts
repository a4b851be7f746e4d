import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { createWarehouse, type Warehouse, type WarehouseOptions } from '../../../src/server/warehouse/warehouse';

export interface TestWarehouse {
  warehouse: Warehouse;
  dataDir: string;
}

/** A temporary folder for files a test writes; removed when the test finishes. */
export function tempDir(prefix = 'ws-wh-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A warehouse on a fresh temporary data folder; closed and removed when the test finishes. */
export function makeWarehouse(options: Partial<WarehouseOptions> = {}): TestWarehouse {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-wh-'));
  const warehouse = createWarehouse({ dataDir, memoryLimit: '256MB', threads: 2, idleMs: 60_000, ...options });
  onTestFinished(async () => {
    await warehouse.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { warehouse, dataDir };
}

/** A compiled query with no parameters. */
export const sql = (text: string, ...parameters: (string | number | boolean | bigint | null)[]) => ({
  sql: text,
  parameters,
});

/**
 * The account's scratch folder (made if missing): a locked-down warehouse reads and writes files only
 * in its account's own folders, so files a test hands to DuckDB go here.
 */
export function scratchOf(executor: { scratchDir: string }): string {
  fs.mkdirSync(executor.scratchDir, { recursive: true });
  return executor.scratchDir;
}

/** Writes `content` (text or raw bytes) to a file in a temporary folder and returns its path. */
export function writeFile(dir: string, name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

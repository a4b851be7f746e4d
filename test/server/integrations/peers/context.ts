/** A ConnectorContext for tests (logs kept in memory, a real temp folder) and read helpers. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type {
  ConnectorContext,
  LogLevel,
  ReadItem,
} from '../../../../src/server/modules/integrations/connectors/types';

export interface TestContext extends ConnectorContext {
  logs: { level: LogLevel; message: string }[];
  abort: AbortController;
  cleanup(): Promise<void>;
}

export async function makeContext(): Promise<TestContext> {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'connector-test-'));
  const abort = new AbortController();
  const logs: TestContext['logs'] = [];
  return {
    logs,
    abort,
    signal: abort.signal,
    tempDir,
    log: (level, message) => logs.push({ level, message }),
    cleanup: () => rm(tempDir, { recursive: true, force: true }),
  };
}

export async function collect(items: AsyncIterable<ReadItem>): Promise<ReadItem[]> {
  const all: ReadItem[] = [];
  for await (const item of items) all.push(item);
  return all;
}

export function recordsOf(items: ReadItem[]): Record<string, unknown>[] {
  return items.flatMap((i) => (i.kind === 'records' ? i.records : []));
}

export function statesOf(items: ReadItem[]): unknown[] {
  return items.flatMap((i) => (i.kind === 'state' ? [i.state] : []));
}

export function filesOf(items: ReadItem[]): Extract<ReadItem, { kind: 'file' }>[] {
  return items.flatMap((i) => (i.kind === 'file' ? [i] : []));
}

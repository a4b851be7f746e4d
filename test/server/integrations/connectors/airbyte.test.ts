import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAirbyteSourceConnector,
  fetchSourceSpecification,
  type SourceRuntime,
  type SourceSpecification,
} from '../../../../src/server/modules/integrations/connectors/airbyte';
import type { AirbyteSourceSetting } from '../../../../src/server/modules/integrations/connectors/airbyte/sources-file';
import {
  ConnectorError,
  type Connector,
  type ReadItem,
  type ReadRequest,
} from '../../../../src/server/modules/integrations/connectors/types';
import { collect, makeContext, recordsOf, statesOf, type TestContext } from '../peers/context';

const PEER = path.join(import.meta.dirname, '../peers/airbyte-source.mjs');
const AS_ROOT = process.getuid?.() === 0;

let ctx: TestContext;
/** A folder the source may write to (as nobody too): PEER_CALLS and PEER_PIDS live here. */
let shared: string;
let serverLines: string[];
beforeEach(async () => {
  ctx = await makeContext();
  shared = fs.mkdtempSync(path.join(os.tmpdir(), 'airbyte-peer-'));
  fs.chmodSync(shared, 0o777);
  // A copy any user may read: the checkout may sit in a folder closed to the user sources run as.
  fs.copyFileSync(PEER, path.join(shared, 'source.mjs'));
  fs.chmodSync(path.join(shared, 'source.mjs'), 0o644);
  serverLines = [];
});
afterEach(async () => {
  await ctx.cleanup();
  fs.rmSync(shared, { recursive: true, force: true });
});

function runtime(over: Partial<AirbyteSourceSetting> = {}): SourceRuntime {
  const setting: AirbyteSourceSetting = {
    key: 'test',
    name: 'Test source',
    command: process.execPath,
    args: [path.join(shared, 'source.mjs')],
    docs: null,
    env: { PEER_CALLS: path.join(shared, 'calls'), PEER_PIDS: path.join(shared, 'pids') },
    timeoutMs: { spec: 10_000, check: 10_000, discover: 10_000, read: 10_000 },
    maxLineBytes: 1024 * 1024,
    maxStderrBytes: 64 * 1024,
    user: { uid: 65_534, gid: 65_534 },
    ...over,
  };
  return {
    setting,
    workPrefix: path.join(os.tmpdir(), 'ws-airbyte-unit-'),
    runAs: AS_ROOT ? setting.user : null,
    serverLog: (line) => serverLines.push(line),
  };
}

/** The commands the source was started with, in order. */
const calls = () => {
  const file = path.join(shared, 'calls');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
};

let spec: SourceSpecification | null = null;
async function connector(over: Partial<AirbyteSourceSetting> = {}): Promise<Connector> {
  spec ??= await fetchSourceSpecification(runtime(), ctx.signal);
  return createAirbyteSourceConnector(runtime(over), spec);
}

const config = (source: Record<string, unknown> = {}) => ({ api_key: 'good', ...source });

const request = (over: Partial<ReadRequest> = {}): ReadRequest => ({
  dataset: 'customers',
  properties: [],
  syncType: 'FullRefresh',
  cursorField: null,
  state: null,
  ...over,
});

/** Reads until the connector throws, returning what came before and the error. */
async function readUntilError(items: AsyncIterable<ReadItem>) {
  const seen: ReadItem[] = [];
  try {
    for await (const item of items) seen.push(item);
  } catch (error) {
    return { seen, error };
  }
  return { seen, error: null };
}

/** Alive and not a zombie (an orphan nobody reaped yet counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Working folders of the unit runtime still on disk. */
const workFolders = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('ws-airbyte-unit-'));

describe('Airbyte-protocol source with a real source process', () => {
  it("takes the source's spec as the definition's specification", async () => {
    const fetched = await fetchSourceSpecification(runtime(), ctx.signal);
    expect(fetched.documentationUrl).toBe('https://example.com/test-source');
    expect(fetched.settings).toMatchObject({
      type: 'object',
      required: ['api_key'],
      properties: { api_key: { type: 'string', airbyte_secret: true } },
    });
  });

  it("runs check: the source's own status message, never its output", async () => {
    const source = await connector();
    expect(await source.check(config(), ctx)).toEqual({ ok: true });
    expect(await source.check(config({ api_key: 'bad' }), ctx)).toEqual({
      ok: false,
      message: "The source's connection check failed: Invalid API key",
    });
    const crashed = await source.check(config({ mode: 'stderr_crash' }), ctx);
    expect(crashed).toEqual({
      ok: false,
      message:
        "The source's connection check failed: the source stopped without answering; the server log has the details.",
    });
    expect(serverLines.some((l) => l.includes('SECRET-STDERR'))).toBe(true);
    const traced = await source.check(config({ mode: 'trace' }), ctx);
    expect(traced.ok).toBe(false);
    expect(JSON.stringify(traced)).not.toContain('INTERNAL-DETAIL');
    expect(serverLines.some((l) => l.includes('INTERNAL-DETAIL'))).toBe(true);
    const missing = await (await connector({ command: '/no/such/source' })).check(config(), ctx);
    expect(missing).toMatchObject({ ok: false, message: expect.stringContaining('the server log has the details') });
    expect(serverLines.some((l) => l.includes('/no/such/source could not be started: ENOENT'))).toBe(true);
  });

  it("refuses a configuration that does not fit the source's spec before anything runs", async () => {
    const source = await connector();
    const before = calls();
    const refused = async (configuration: Record<string, unknown>) => {
      const result = await source.check(configuration, ctx);
      expect(result.ok).toBe(false);
      return (result as { message: string }).message;
    };
    expect(await refused({ command: '/bin/sh', args: ['-c', 'id'] })).toBe(
      "Unknown setting 'command': the source has no such field.",
    );
    expect(await refused(config({ args: '-c id' }))).toBe("Unknown setting 'args': the source has no such field.");
    expect(await refused({})).toBe('API key: This field is required');
    expect(await refused(config({ extra_customers: 'many' }))).toBe('Extra customers: must be an integer');
    expect(await refused(config({ mode: 'shell' }))).toMatch(/^Mode: must be one of "ok", /);
    expect(await refused(config({ region: { kind: 'custom' } }))).toBe('Region URL: This field is required');
    expect(await refused(config({ region: { kind: 'custom', url: 'http://x' } }))).toBe('Region URL: Invalid format');
    expect(await refused(config({ region: { kind: 'mars' } }))).toBe('Region: matches none of its options');
    expect(calls()).toEqual(before);
    await expect(source.discover({ command: '/bin/sh' }, ctx)).rejects.toThrow(/Unknown setting 'command'/);
    await expect(collect(source.read({ command: '/bin/sh' }, request(), ctx))).rejects.toThrow(/Unknown setting/);
    expect(calls()).toEqual(before);
    expect(await source.check(config({ region: { kind: 'custom', url: 'https://eu.example.com' } }), ctx)).toEqual({
      ok: true,
    });
  });

  it('maps the CATALOG to datasets', async () => {
    const [customers, invoices] = await (await connector()).discover(config(), ctx);
    expect(customers).toMatchObject({
      name: 'customers',
      primaryKey: ['id'],
      cursorField: 'updated_at',
      supportedSyncTypes: ['FullRefresh', 'Incremental'],
      supportedIngestionTypes: ['Overwrite', 'Append', 'AppendDedup'],
    });
    expect(customers?.properties.map((p) => [p.name, p.type])).toEqual([
      ['id', 'Number'],
      ['name', 'Text'],
      ['vip', 'Boolean'],
      ['updated_at', 'DateTime'],
      ['address', 'Json'],
    ]);
    expect(customers?.properties.find((p) => p.name === 'name')?.description).toBe('Display name');
    expect(invoices).toMatchObject({
      name: 'invoices',
      primaryKey: [],
      cursorField: null,
      supportedSyncTypes: ['FullRefresh'],
    });
    expect(invoices?.properties.map((p) => p.type)).toEqual(['Text', 'Number', 'Date']);
  });

  it('reads one stream as record batches and logs the source', async () => {
    const items = await collect((await connector()).read(config(), request({ dataset: 'invoices' }), ctx));
    expect(recordsOf(items)).toEqual([
      { number: 'A-1', total: 10.5, issued: '2024-02-01' },
      { number: 'A-2', total: 99, issued: '2024-02-02' },
    ]);
    const messages = ctx.logs.map((l) => l.message);
    expect(messages).toContain('Starting read');
    expect(messages).toContain('plain text output the connector should log, not parse');
    expect(messages.some((m) => m.includes('noise'))).toBe(false);
  });

  it('keeps STATE between incremental syncs and passes it back with --state', async () => {
    const source = await connector();
    const incremental = (state: unknown, extra = {}) =>
      source.read(config(extra), request({ syncType: 'Incremental', state, properties: ['id', 'updated_at'] }), ctx);
    const first = await collect(incremental(null));
    expect(recordsOf(first).map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect(recordsOf(first)[0]).toEqual({ id: 1, updated_at: '2024-01-01T00:00:00Z' });
    // Each state comes after the records it covers.
    expect(first.map((i) => i.kind)).toEqual(['records', 'state', 'records', 'state', 'records', 'state']);
    const state = statesOf(first).at(-1);
    expect(state).toMatchObject({ type: 'STREAM', stream: { stream_state: { updated_at: '2024-01-05T00:00:00Z' } } });

    const second = await collect(incremental(state, { extra_customers: 2 }));
    expect(recordsOf(second).map((r) => r.id)).toEqual([6, 7]);
    expect(statesOf(second).at(-1)).toMatchObject({ stream: { stream_state: { updated_at: '2024-01-07T00:00:00Z' } } });
  });

  it('turns a TRACE error mid-read into a ConnectorError after the records before it', async () => {
    const { seen, error } = await readUntilError(
      (await connector()).read(config({ mode: 'fail_mid_read' }), request(), ctx),
    );
    expect(recordsOf(seen).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).message).toBe('Upstream API broke mid-read');
    expect((error as ConnectorError).type).toBe('SystemError');
    expect(ctx.logs).toContainEqual({ level: 'ERROR', message: 'Upstream API broke mid-read' });
  });

  it("turns a non-zero exit into a generic ConnectorError; stderr goes to the run's log and the server log", async () => {
    const { error } = await readUntilError((await connector()).read(config({ mode: 'crash' }), request(), ctx));
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).message).toBe("The source's read failed.");
    expect(ctx.logs).toContainEqual({ level: 'WARN', message: 'stderr: Segmentation fault (pretend)' });
    expect(ctx.logs).toContainEqual({ level: 'ERROR', message: "The source's read ended with exit code 3." });
    expect(serverLines).toContain('[airbyte:test read] stderr: Segmentation fault (pretend)');
  });

  it('refuses an unknown stream', async () => {
    const { error } = await readUntilError((await connector()).read(config(), request({ dataset: 'nope' }), ctx));
    expect((error as ConnectorError).type).toBe('ConfigError');
  });
});

describe('how a source is run', () => {
  const SERVER_SECRETS = {
    SECRETS_KEY: 'a'.repeat(64),
    SESSION_SECRET: 'server-session-secret-that-is-long-enough',
    SMTP_URL: 'smtp://user:mail-password@mail.example.com',
    DATABASE_URL: 'postgres://app:db-password@db/app',
  };

  it('gets a clean environment, a fresh folder removed afterwards, and no root even when the server is root', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, SERVER_SECRETS);
    let records: Record<string, unknown>[];
    try {
      records = recordsOf(await collect((await connector()).read(config(), request({ dataset: 'environment' }), ctx)));
    } finally {
      for (const key of Object.keys(SERVER_SECRETS)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    const [seen] = records;
    const env = JSON.parse(String(seen?.env)) as Record<string, string>;
    const cwd = String(seen?.cwd);
    expect(Object.keys(env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'PEER_CALLS', 'PEER_PIDS', 'TMPDIR']);
    expect(env.HOME).toBe(cwd);
    expect(env.TMPDIR).toBe(cwd);
    expect(env.PATH).toBe('/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    for (const secret of Object.values(SERVER_SECRETS)) expect(String(seen?.env)).not.toContain(secret);
    expect(path.basename(cwd)).toMatch(/^ws-airbyte-unit-/);
    expect(fs.existsSync(cwd)).toBe(false);
    // The program and its arguments are the operator's; the configuration arrives as a file in the folder.
    expect(JSON.parse(String(seen?.argv))).toEqual([
      'read',
      '--config',
      path.join(cwd, 'config.json'),
      '--catalog',
      path.join(cwd, 'catalog.json'),
    ]);
    if (AS_ROOT) {
      expect(seen?.uid).toBe(65_534);
      expect(seen?.gid).toBe(65_534);
      expect(JSON.parse(String(seen?.groups))).not.toContain(0);
    } else {
      expect(seen?.uid).toBe(process.getuid?.());
    }
    expect(workFolders()).toEqual([]);
  });

  it('stops a source at its time limit, with everything it started', async () => {
    const source = await connector({ timeoutMs: { spec: 1000, check: 1000, discover: 1000, read: 1000 } });
    const started = Date.now();
    expect(await source.check(config({ mode: 'hang' }), ctx)).toEqual({
      ok: false,
      message: "The source's connection check failed: The source's check did not finish within 1 s.",
    });
    expect(Date.now() - started).toBeLessThan(5000);

    expect((await source.check(config({ mode: 'grandchild' }), ctx)).ok).toBe(false);
    const pid = Number(fs.readFileSync(path.join(shared, 'pids'), 'utf8').trim());
    await expect.poll(() => alive(pid), { timeout: 3000 }).toBe(false);

    // A program that left its process group and holds stdout open does not hold the call.
    fs.rmSync(path.join(shared, 'pids'));
    expect((await source.check(config({ mode: 'escape' }), ctx)).ok).toBe(false);
    const escaped = Number(fs.readFileSync(path.join(shared, 'pids'), 'utf8').trim());
    process.kill(escaped, 'SIGKILL');

    const { error } = await readUntilError(source.read(config({ mode: 'hang_read' }), request(), ctx));
    expect((error as ConnectorError).message).toBe("The source's read did not finish within 1 s.");
    expect(workFolders()).toEqual([]);
  });

  it('bounds what a source may write: one message, and its error output', async () => {
    const source = await connector();
    expect(await source.check(config({ mode: 'long_line' }), ctx)).toEqual({
      ok: false,
      message:
        "The source's connection check failed: The source wrote a message larger than 1048576 bytes; it was stopped.",
    });
    expect(await source.check(config({ mode: 'stderr_flood' }), ctx)).toEqual({
      ok: false,
      message:
        "The source's connection check failed: The source wrote more than 65536 bytes of error output; it was stopped.",
    });
    expect(workFolders()).toEqual([]);
  });

  it('stops when the run is cancelled', async () => {
    const source = await connector();
    const reading = readUntilError(source.read(config({ mode: 'hang_read' }), request(), ctx));
    await expect.poll(() => calls().filter((c) => c === 'read').length).toBe(1);
    ctx.abort.abort();
    const { error } = await reading;
    expect((error as ConnectorError).message).toBe('The source was stopped before it finished.');
  });
});

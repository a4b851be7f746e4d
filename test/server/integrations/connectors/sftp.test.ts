import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSftpConnector } from '../../../../src/server/modules/integrations/connectors/sftp';
import { createOutboundPolicy } from '../../../../src/server/net/outbound-policy';
import { datasetNameOf, globToRegExp } from '../../../../src/server/modules/integrations/connectors/sftp/file-sets';
import type { ConnectorError, ReadRequest } from '../../../../src/server/modules/integrations/connectors/types';
import { openTestDuckDb } from '../../../engine/duckdb';
import { collect, filesOf, makeContext, statesOf, type TestContext } from '../peers/context';
import { startListener } from '../peers/listener';
import { startSftp, type SftpPeer } from '../peers/sftp';

/** The peer listens on 127.0.0.1: private networks allowed, as with the default SIGNUP=invite. */
const sftpConnector = createSftpConnector(createOutboundPolicy({ allowPrivateNetworks: true }));

let peer: SftpPeer;
let ctx: TestContext;
let dataDir: string;

/** Writes a served file with a fixed modification time (seconds), as a real upload would have. */
async function put(name: string, content: string, mtime: number) {
  const file = path.join(dataDir, name);
  await writeFile(file, content);
  await utimes(file, mtime, mtime);
}

const ORDERS_1 = 'id,amount,ordered_at\n1,9.5,2024-01-01 10:00:00\n2,3,2024-01-01 11:00:00\n';
const ORDERS_2 = 'id,amount,ordered_at\n3,7.25,2024-01-02 09:30:00\n';

beforeAll(async () => {
  peer = await startSftp();
  dataDir = path.join(peer.root, 'data');
  await mkdir(dataDir);
  await put('orders_2024-01-01.csv', ORDERS_1, 1_700_000_000);
  await put('orders_2024-01-02.csv', ORDERS_2, 1_700_000_100);
  await put(
    'customers.csv',
    'id,name,vip,joined\n1,Ann,true,2023-05-01\n2,"Bob, Jr.",false,2023-06-02\n',
    1_700_000_000,
  );
  await put('readme.txt', 'not data', 1_700_000_000);
  await put(
    'events-001.jsonl',
    '{"id":1,"kind":"view","tags":["a"]}\n{"id":2,"kind":"buy","tags":[]}\n',
    1_700_000_000,
  );
  const db = await openTestDuckDb();
  await db.exec(
    `COPY (SELECT 1 AS id, 'x' AS label, DATE '2024-03-01' AS day) TO '${path.join(dataDir, 'metrics.parquet')}' (FORMAT parquet)`,
  );
  db.close();
});
afterAll(() => peer.close());
beforeEach(async () => {
  ctx = await makeContext();
});
afterEach(() => ctx.cleanup());

const config = (over: Record<string, unknown> = {}) => ({
  host: peer.host,
  port: peer.port,
  username: peer.user,
  authentication: { type: 'password', password: peer.password },
  folder: '/data',
  file_pattern: '*.csv',
  format: 'csv',
  ...over,
});

const request = (over: Partial<ReadRequest> = {}): ReadRequest => ({
  dataset: 'orders',
  properties: [],
  syncType: 'FullRefresh',
  cursorField: null,
  state: null,
  ...over,
});

describe('SFTP file sets', () => {
  it('groups names by the prefix before a trailing date or number', () => {
    expect(datasetNameOf('orders_2024-01-31.csv')).toBe('orders');
    expect(datasetNameOf('export-0001.parquet')).toBe('export');
    expect(datasetNameOf('customers.csv')).toBe('customers');
    expect(datasetNameOf('20240131.csv')).toBe('files');
    expect(datasetNameOf('sales 2024.json.gz')).toBe('sales');
  });

  it('matches globs', () => {
    expect(globToRegExp('orders_*.csv').test('orders_1.csv')).toBe(true);
    expect(globToRegExp('orders_*.csv').test('orders_1.csv.bak')).toBe(false);
    expect(globToRegExp('*.{csv,tsv}').test('a.tsv')).toBe(true);
    expect(globToRegExp('data?.csv').test('data10.csv')).toBe(false);
    expect(globToRegExp('[ab]*.csv').test('b1.csv')).toBe(true);
  });
});

describe('SFTP connector against a real SFTP server', () => {
  it('checks password and private key logins and names what is wrong', async () => {
    expect(await sftpConnector.check(config(), ctx)).toEqual({ ok: true });
    const key = config({ authentication: { type: 'private_key', private_key: peer.privateKey } });
    expect(await sftpConnector.check(key, ctx)).toEqual({ ok: true });
    const wrong = await sftpConnector.check(config({ authentication: { type: 'password', password: 'nope' } }), ctx);
    expect(wrong).toMatchObject({ ok: false, message: expect.stringContaining('Authentication failed') });
    const folder = await sftpConnector.check(config({ folder: '/missing' }), ctx);
    expect(folder).toMatchObject({ ok: false, message: expect.stringContaining("'/missing' does not exist") });
  });

  it('discovers one dataset per file set with column types', async () => {
    const datasets = await sftpConnector.discover(config(), ctx);
    expect(datasets.map((d) => d.name).sort()).toEqual(['customers', 'orders']);
    const types = (name: string) =>
      Object.fromEntries(datasets.find((d) => d.name === name)?.properties.map((p) => [p.name, p.type]) ?? []);
    expect(types('orders')).toEqual({ id: 'Number', amount: 'Number', ordered_at: 'DateTime' });
    expect(types('customers')).toEqual({ id: 'Number', name: 'Text', vip: 'Boolean', joined: 'Date' });
  });

  it('discovers JSON lines and Parquet files', async () => {
    const [events] = await sftpConnector.discover(config({ file_pattern: '*.jsonl', format: 'jsonl' }), ctx);
    expect(events?.name).toBe('events');
    expect(events?.properties.map((p) => [p.name, p.type])).toEqual([
      ['id', 'Number'],
      ['kind', 'Text'],
      ['tags', 'Array'],
    ]);
    const [metrics] = await sftpConnector.discover(config({ file_pattern: '*.parquet', format: 'parquet' }), ctx);
    expect(metrics?.properties.map((p) => [p.name, p.type])).toEqual([
      ['id', 'Number'],
      ['label', 'Text'],
      ['day', 'Date'],
    ]);
  });

  it('downloads every file of a dataset on a full refresh', async () => {
    const files = filesOf(await collect(sftpConnector.read(config(), request(), ctx)));
    expect(files.map((f) => f.format)).toEqual(['csv', 'csv']);
    expect(await Promise.all(files.map((f) => readFile(f.path, 'utf8')))).toEqual([ORDERS_1, ORDERS_2]);
    expect(files.every((f) => f.path.startsWith(ctx.tempDir))).toBe(true);
  });

  it('reads only new files on incremental syncs', async () => {
    const first = await collect(sftpConnector.read(config(), request({ syncType: 'Incremental' }), ctx));
    expect(filesOf(first)).toHaveLength(2);
    const state = statesOf(first).at(-1);
    expect(state).toEqual({ modifiedAt: 1_700_000_100, filesAtModifiedAt: ['orders_2024-01-02.csv'] });

    await put('orders_2024-01-03.csv', 'id,amount,ordered_at\n4,1,2024-01-03 08:00:00\n', 1_700_000_100);
    await put('orders_2024-01-04.csv', 'id,amount,ordered_at\n5,2,2024-01-04 08:00:00\n', 1_700_000_200);
    const second = await collect(sftpConnector.read(config(), request({ syncType: 'Incremental', state }), ctx));
    const contents = await Promise.all(filesOf(second).map((f) => readFile(f.path, 'utf8')));
    expect(contents.map((c) => c.split('\n')[1]?.split(',')[0])).toEqual(['4', '5']);
    const next = statesOf(second).at(-1);
    expect(next).toEqual({ modifiedAt: 1_700_000_200, filesAtModifiedAt: ['orders_2024-01-04.csv'] });

    const third = await collect(sftpConnector.read(config(), request({ syncType: 'Incremental', state: next }), ctx));
    expect(filesOf(third)).toEqual([]);
    expect(statesOf(third)).toEqual([next]);
  });

  it('fails a read of an unknown dataset with a ConfigError', async () => {
    const error = await collect(sftpConnector.read(config(), request({ dataset: 'nope' }), ctx)).catch(
      (e: unknown) => e,
    );
    expect((error as ConnectorError).type).toBe('ConfigError');
  });
});

describe('SFTP connector against a port that never answers', () => {
  it('times out with a TransientError and the process survives the errors ssh2 emits after it', async () => {
    // A silent listener: ssh2 reports the handshake timeout, then the lost connection; an
    // unhandled second 'error' event would take the whole server down.
    const silent = await startListener();
    try {
      const started = Date.now();
      const result = await sftpConnector.check(config({ host: '127.0.0.1', port: silent.port }), ctx);
      expect(result).toEqual({ ok: false, message: `Timed out connecting to 127.0.0.1:${silent.port}` });
      expect(Date.now() - started).toBeGreaterThanOrEqual(19_000);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the late error arrives here
    } finally {
      await silent.close();
    }
  }, 40_000);
});

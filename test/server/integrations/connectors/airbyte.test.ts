import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { airbyteConnector, airbyteSourceSpec } from '../../../../src/server/modules/integrations/connectors/airbyte';
import {
  ConnectorError,
  type ReadItem,
  type ReadRequest,
} from '../../../../src/server/modules/integrations/connectors/types';
import { collect, makeContext, recordsOf, statesOf, type TestContext } from '../peers/context';

const SOURCE = path.join(import.meta.dirname, '../peers/airbyte-source.mjs');
let ctx: TestContext;
beforeEach(async () => {
  ctx = await makeContext();
});
afterEach(() => ctx.cleanup());

const config = (source: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: `"${SOURCE}"`,
  source_config: JSON.stringify({ api_key: 'good', ...source }),
});

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

describe('Airbyte-protocol connector with a real source process', () => {
  it('runs spec and check', async () => {
    expect(await airbyteSourceSpec(config(), ctx)).toMatchObject({
      connectionSpecification: { required: ['api_key'] },
    });
    expect(await airbyteConnector.check(config(), ctx)).toEqual({ ok: true });
    expect(await airbyteConnector.check(config({ api_key: 'bad' }), ctx)).toEqual({
      ok: false,
      message: 'Invalid API key',
    });
    const missing = await airbyteConnector.check({ command: '/no/such/source' }, ctx);
    expect(missing).toMatchObject({ ok: false, message: expect.stringContaining('could not be started') });
  });

  it('maps the CATALOG to datasets', async () => {
    const [customers, invoices] = await airbyteConnector.discover(config(), ctx);
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
    const items = await collect(airbyteConnector.read(config(), request({ dataset: 'invoices' }), ctx));
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
    const incremental = (state: unknown, source = {}) =>
      airbyteConnector.read(
        config(source),
        request({ syncType: 'Incremental', state, properties: ['id', 'updated_at'] }),
        ctx,
      );
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
      airbyteConnector.read(config({ mode: 'fail_mid_read' }), request(), ctx),
    );
    expect(recordsOf(seen).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).message).toBe('Upstream API broke mid-read');
    expect((error as ConnectorError).type).toBe('SystemError');
    expect(ctx.logs).toContainEqual({ level: 'ERROR', message: 'Upstream API broke mid-read' });
  });

  it('turns a non-zero exit into a ConnectorError naming the exit code and stderr', async () => {
    const { error } = await readUntilError(airbyteConnector.read(config({ mode: 'crash' }), request(), ctx));
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).message).toMatch(/exited with code 3: Segmentation fault \(pretend\)/);
  });

  it('refuses an unknown stream', async () => {
    const { error } = await readUntilError(airbyteConnector.read(config(), request({ dataset: 'nope' }), ctx));
    expect((error as ConnectorError).type).toBe('ConfigError');
  });
});

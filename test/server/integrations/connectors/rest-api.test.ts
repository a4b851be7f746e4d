import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createRestApiConnector,
  restApiSpecification,
} from '../../../../src/server/modules/integrations/connectors/rest-api';
import { createOutboundPolicy } from '../../../../src/server/net/outbound-policy';
import { ConnectorError, type ReadRequest } from '../../../../src/server/modules/integrations/connectors/types';
import { collect, makeContext, recordsOf, statesOf, type TestContext } from '../peers/context';
import { startApi, type ApiPeer } from '../peers/http-api';

/** 23 rows: not a multiple of the page sizes, so the short last page ends paging. */
const ROWS = Array.from({ length: 23 }, (_, i) => ({
  id: i + 1,
  name: `item ${i + 1}`,
  price: (i + 1) * 1.5,
  active: i % 2 === 0,
  created: `2024-01-${String(i + 1).padStart(2, '0')}`,
  updated_at: `2024-02-01T00:${String(i).padStart(2, '0')}:00Z`,
  tags: ['a'],
}));

/** The peers listen on 127.0.0.1: private networks allowed, as with the default SIGNUP=invite. */
const restApiConnector = createRestApiConnector(createOutboundPolicy({ allowPrivateNetworks: true }));

let api: ApiPeer;
let ctx: TestContext;
let flakyCalls = 0;

beforeAll(async () => {
  api = await startApi({
    '/pages': (q) => {
      const page = Number(q.get('page'));
      const size = Number(q.get('per_page'));
      return { body: { data: { items: ROWS.slice((page - 1) * size, page * size) } } };
    },
    '/offsets': (q) => {
      const offset = Number(q.get('offset'));
      return { body: { results: ROWS.slice(offset, offset + Number(q.get('limit'))) } };
    },
    '/cursors': (q) => {
      const start = Number(q.get('after') ?? 0);
      const items = ROWS.slice(start, start + 10);
      const next = start + 10 < ROWS.length ? String(start + 10) : null;
      return { body: { data: items, meta: { next_cursor: next } } };
    },
    '/links': (q, _req, base) => {
      const page = Number(q.get('p') ?? 1);
      const items = ROWS.slice((page - 1) * 7, page * 7);
      const more = page * 7 < ROWS.length;
      const headers: Record<string, string> = more
        ? { link: `<${base}/links?p=${page + 1}>; rel="next", <${base}/links?p=4>; rel="last"` }
        : {};
      return { headers, body: items };
    },
    '/secured': (q, req) => {
      const h = req.headers;
      const ok =
        h['x-api-key'] === 'k1' ||
        q.get('api_key') === 'k2' ||
        h.authorization === 'Bearer tok' ||
        h.authorization === `Basic ${Buffer.from('ann:pw').toString('base64')}`;
      return ok ? { body: [{ id: 1 }] } : { status: 401, body: { error: 'no' } };
    },
    '/flaky': () => {
      flakyCalls++;
      return flakyCalls === 1 ? { status: 429, headers: { 'retry-after': '1' }, body: {} } : { body: [{ id: 7 }] };
    },
    '/broken': () => ({ status: 500, body: { error: 'down' } }),
    '/changes': (q) => {
      const since = q.get('since');
      return { body: { items: ROWS.filter((r) => since === null || r.updated_at >= since) } };
    },
  });
});
afterAll(() => api.close());
beforeEach(async () => {
  ctx = await makeContext();
});
afterEach(() => ctx.cleanup());

const streamConfig = (stream: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  base_url: api.baseUrl,
  streams: [{ name: 'items', primary_key: 'id', ...stream }],
  backoff_base_ms: 10,
  ...extra,
});

const request = (over: Partial<ReadRequest> = {}): ReadRequest => ({
  dataset: 'items',
  properties: [],
  syncType: 'FullRefresh',
  cursorField: null,
  state: null,
  ...over,
});

describe('REST API connector: pagination styles', () => {
  it('pages by page number and size, stopping at the short page', async () => {
    const config = streamConfig({
      path: '/pages',
      record_selector: 'data.items',
      pagination: { type: 'page_number', page_param: 'page', size_param: 'per_page', page_size: 10 },
    });
    const items = await collect(restApiConnector.read(config, request(), ctx));
    expect(recordsOf(items).map((r) => r.id)).toEqual(ROWS.map((r) => r.id));
    expect(api.seen('/pages').map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it('pages by offset and limit', async () => {
    const config = streamConfig({
      path: '/offsets',
      record_selector: '$.results[*]',
      pagination: { type: 'offset', limit: 5 },
    });
    const items = await collect(restApiConnector.read(config, request(), ctx));
    expect(recordsOf(items)).toEqual(ROWS);
    expect(api.seen('/offsets').map((r) => r.query.get('offset'))).toEqual(['0', '5', '10', '15', '20']);
  });

  it('sends the body cursor back as a parameter until there is none', async () => {
    const config = streamConfig({
      path: '/cursors',
      record_selector: 'data',
      pagination: { type: 'cursor', cursor_path: 'meta.next_cursor', cursor_param: 'after' },
    });
    const items = await collect(restApiConnector.read(config, request(), ctx));
    expect(recordsOf(items).map((r) => r.id)).toEqual(ROWS.map((r) => r.id));
    expect(api.seen('/cursors').map((r) => r.query.get('after'))).toEqual([null, '10', '20']);
  });

  it('follows the Link header rel="next"', async () => {
    const config = streamConfig({ path: '/links', pagination: { type: 'link_header' } });
    const items = await collect(restApiConnector.read(config, request(), ctx));
    expect(recordsOf(items).map((r) => r.id)).toEqual(ROWS.map((r) => r.id));
    expect(api.seen('/links')).toHaveLength(4);
  });

  it('keeps only the selected properties', async () => {
    const config = streamConfig({ path: '/links', pagination: { type: 'link_header' } });
    const items = await collect(restApiConnector.read(config, request({ properties: ['id', 'name'] }), ctx));
    expect(recordsOf(items)[0]).toEqual({ id: 1, name: 'item 1' });
  });
});

describe('REST API connector: authentication', () => {
  const secured = (authentication: Record<string, unknown>) =>
    streamConfig({ path: '/secured' }, { authentication, max_tries: 1 });

  it.each([
    ['API key header', { type: 'api_key', in: 'header', name: 'X-API-Key', value: 'k1' }],
    ['API key query', { type: 'api_key', in: 'query', name: 'api_key', value: 'k2' }],
    ['bearer', { type: 'bearer', token: 'tok' }],
    ['basic', { type: 'basic', username: 'ann', password: 'pw' }],
  ])('passes with %s', async (_label, auth) => {
    expect(await restApiConnector.check(secured(auth), ctx)).toEqual({ ok: true });
  });

  it('fails check with a clear message, keeping the key out of it', async () => {
    const result = await restApiConnector.check(
      secured({ type: 'api_key', in: 'query', name: 'api_key', value: 'wrong-secret' }),
      ctx,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain('Authentication failed (HTTP 401 Unauthorized)');
      expect(result.message).not.toContain('wrong-secret');
    }
  });

  it('read without credentials throws a ConfigError', async () => {
    const error = await collect(restApiConnector.read(secured({ type: 'none' }), request(), ctx)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).type).toBe('ConfigError');
  });
});

describe('REST API connector: retries', () => {
  it('waits out a 429 with Retry-After, then succeeds', async () => {
    flakyCalls = 0;
    const started = Date.now();
    const items = await collect(restApiConnector.read(streamConfig({ path: '/flaky' }), request(), ctx));
    expect(recordsOf(items)).toEqual([{ id: 7 }]);
    expect(flakyCalls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(ctx.logs.some((l) => l.level === 'WARN' && l.message.includes('HTTP 429'))).toBe(true);
  });

  it('gives up on a 500 forever with a TransientError after max tries', async () => {
    const before = api.seen('/broken').length;
    const error = await collect(
      restApiConnector.read(streamConfig({ path: '/broken' }, { max_tries: 3 }), request(), ctx),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).type).toBe('TransientError');
    expect((error as ConnectorError).message).toMatch(/failed after 3 tries \(HTTP 500 Internal Server Error\)/);
    expect(api.seen('/broken').length - before).toBe(3);
  });

  it('gives up on an unreachable server with a TransientError', async () => {
    const config = { ...streamConfig({ path: '/x' }, { max_tries: 2 }), base_url: 'http://127.0.0.1:1' };
    const error = await collect(restApiConnector.read(config, request(), ctx)).catch((e: unknown) => e);
    expect((error as ConnectorError).type).toBe('TransientError');
  });
});

describe('REST API connector: discovery and incremental syncs', () => {
  const changes = () =>
    streamConfig({ path: '/changes', record_selector: 'items', cursor_field: 'updated_at', cursor_param: 'since' });

  it('infers property types from a sample', async () => {
    const [dataset] = await restApiConnector.discover(changes(), ctx);
    const types = Object.fromEntries(dataset?.properties.map((p) => [p.name, p.type]) ?? []);
    expect(types).toEqual({
      id: 'Number',
      name: 'Text',
      price: 'Number',
      active: 'Boolean',
      created: 'Date',
      updated_at: 'DateTime',
      tags: 'Array',
    });
    expect(dataset?.primaryKey).toEqual(['id']);
    expect(dataset?.cursorField).toBe('updated_at');
    expect(dataset?.supportedSyncTypes).toEqual(['FullRefresh', 'Incremental']);
    expect(dataset?.properties.find((p) => p.name === 'updated_at')?.isCursor).toBe(true);
  });

  it('keeps the max cursor as state and sends it on the next sync', async () => {
    const first = await collect(
      restApiConnector.read(changes(), request({ syncType: 'Incremental', cursorField: 'updated_at' }), ctx),
    );
    expect(recordsOf(first)).toHaveLength(23);
    const state = statesOf(first).at(-1);
    expect(state).toEqual({ cursor: ROWS[22]?.updated_at });

    const second = await collect(
      restApiConnector.read(changes(), request({ syncType: 'Incremental', cursorField: 'updated_at', state }), ctx),
    );
    expect(api.seen('/changes').at(-1)?.query.get('since')).toBe(ROWS[22]?.updated_at);
    expect(recordsOf(second).map((r) => r.id)).toEqual([23]);
    expect(statesOf(second).at(-1)).toEqual(state);
  });

  it('the specification marks secrets', () => {
    const text = JSON.stringify(restApiSpecification);
    expect(text.match(/airbyte_secret/g)).toHaveLength(3);
    expect(restApiSpecification.settings.required).toContain('base_url');
  });
});

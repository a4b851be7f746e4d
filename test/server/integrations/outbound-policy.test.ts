/**
 * The outbound policy against real local listeners, through the app: REST API, PostgreSQL and SFTP
 * integrations are refused at the connection check when private networks are not allowed
 * (CONNECTOR_PRIVATE_NETWORKS=false, or SIGNUP=open with no setting) and the listener sees no
 * connection; metadata addresses are refused even when private networks are allowed, at once;
 * redirects and next-page links are held to the same policy; and errors never repeat what the
 * remote answered (bodies, reason phrases, protocol bytes).
 */
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRestApiConnector } from '../../../src/server/modules/integrations/connectors/rest-api';
import type { ReadRequest } from '../../../src/server/modules/integrations/connectors/types';
import { createOutboundPolicy, type OutboundPolicy } from '../../../src/server/net/outbound-policy';
import { expectError, makeApp, signIn, type TestApp } from '../helpers';
import { api, createIntegration, definitionNamed, ok, selectDatasets, syncNow, type Integration } from './helpers';
import { collect, makeContext } from './peers/context';
import { startApi } from './peers/http-api';
import { httpAnswer, startListener, type ListenerPeer } from './peers/listener';

const SECRET = 'SECRET-7f3a9c';
const POLICY = /^Refused by the network policy: /;

const peers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
});
async function listener(answer?: Parameters<typeof startListener>[0]): Promise<ListenerPeer> {
  const peer = await startListener(answer);
  peers.push(peer);
  return peer;
}

let seq = 0;
/** Creates an integration of a built-in definition; answers the raw call (201 or the 400 of the check). */
async function create(t: TestApp, cookie: string, definition: string, configuration: Record<string, unknown>) {
  const { id } = await definitionNamed(t, cookie, definition);
  seq++;
  return createIntegration(t, cookie, {
    integrationDefinitionId: id,
    name: `Source ${seq}`,
    schemaName: `source_${seq}`,
    configuration,
  });
}

const rest = (baseUrl: string, extra: Record<string, unknown> = {}) => ({
  base_url: baseUrl,
  streams: [{ name: 'items', path: '/items' }],
  max_tries: 1,
  backoff_base_ms: 10,
  ...extra,
});
const postgres = (host: string, port: number) => ({
  host,
  port,
  database: 'postgres',
  username: 'postgres',
  password: 'pw',
});
const sftp = (host: string, port: number) => ({
  host,
  port,
  username: 'ann',
  authentication: { type: 'password', password: 'pw' },
  folder: '/',
  file_pattern: '*.csv',
  format: 'csv',
});

describe.each([
  ['CONNECTOR_PRIVATE_NETWORKS=false', { CONNECTOR_PRIVATE_NETWORKS: 'false' }],
  ['SIGNUP=open and no setting', { SIGNUP: 'open' }],
])('private networks refused (%s)', (_label, env) => {
  it('refuses REST API, PostgreSQL and SFTP sources on loopback at the check; the listener sees nothing', async () => {
    const t = await makeApp(env);
    const cookie = await signIn(t, 'owner@example.com');
    const peer = await listener(httpAnswer('200 OK', '[]', { 'content-type': 'application/json' }));
    const { port } = peer;
    const attempts: [string, Record<string, unknown>][] = [
      ...[
        `http://127.0.0.1:${port}`,
        `http://localhost:${port}`,
        `http://127.1:${port}`,
        `http://0x7f.1:${port}`,
        `http://2130706433:${port}`,
        `http://[::ffff:127.0.0.1]:${port}`,
        `http://[::1]:${port}`,
        `https://localhost:${port}`,
      ].map((url): [string, Record<string, unknown>] => ['REST API', rest(url)]),
      ...['127.0.0.1', 'localhost', '127.1', '0x7f.1', '::ffff:127.0.0.1', '[::1]'].flatMap(
        (host): [string, Record<string, unknown>][] => [
          ['PostgreSQL', postgres(host, port)],
          ['SFTP', sftp(host, port)],
        ],
      ),
    ];
    for (const [definition, configuration] of attempts) {
      const message = expectError(await create(t, cookie, definition, configuration), 400);
      expect(message, JSON.stringify(configuration)).toMatch(POLICY);
      expect(message).toContain(`:${port} is a loopback or private network address`);
      expect(message).toContain('CONNECTOR_PRIVATE_NETWORKS');
    }
    expect(peer.connections()).toBe(0);
    expect(ok(await api<Integration[]>(t, cookie, 'GET', '/api/integrations'))).toEqual([]);
  });
});

describe('private networks allowed (SIGNUP=invite default, or set explicitly)', () => {
  it('CONNECTOR_PRIVATE_NETWORKS=true wins over SIGNUP=open', async () => {
    const t = await makeApp({ SIGNUP: 'open', CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const peer = await listener(httpAnswer('200 OK', '[{"id":1}]', { 'content-type': 'application/json' }));
    ok(await create(t, cookie, 'REST API', rest(`http://127.0.0.1:${peer.port}`)), 201);
    expect(peer.connections()).toBeGreaterThan(0);
  });

  it('refuses cloud metadata and link-local addresses anyway, without waiting on the network', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const started = Date.now();
    const attempts: [string, Record<string, unknown>][] = [
      ['REST API', rest('http://169.254.169.254')],
      ['REST API', rest('http://169.254.169.254/latest/meta-data')],
      ['REST API', rest('http://[::ffff:169.254.169.254]')],
      ['REST API', rest('http://2852039166')],
      ['REST API', rest('http://[fd00:ec2::254]')],
      ['REST API', rest('http://100.100.100.200')],
      ['REST API', rest('http://0.0.0.0:8080')],
      ['PostgreSQL', postgres('169.254.169.254', 5432)],
      ['PostgreSQL', postgres('0xa9fea9fe', 5432)],
      ['SFTP', sftp('169.254.169.254', 22)],
      ['SFTP', sftp('fe80::1', 22)],
    ];
    for (const [definition, configuration] of attempts) {
      const message = expectError(await create(t, cookie, definition, configuration), 400);
      expect(message, JSON.stringify(configuration)).toMatch(POLICY);
      expect(message).toMatch(/never reach$/);
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a REST source whose answer redirects to a metadata address', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const source = await startApi({
      '/items': () => ({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }),
    });
    peers.push(source);
    const message = expectError(await create(t, cookie, 'REST API', rest(source.baseUrl)), 400);
    expect(message).toBe(
      'Refused by the network policy: 169.254.169.254:80 is a link-local or cloud metadata address, ' +
        'which connections from this server may never reach',
    );
  });
});

describe('REST API redirects and next pages to loopback', () => {
  let seen: ListenerPeer;
  /**
   * The source stands for a public API: its name resolves (in this policy only) to the local
   * peer; every other host goes through the real policy, which refuses private networks.
   */
  function publicSource(): OutboundPolicy {
    const real = createOutboundPolicy({ allowPrivateNetworks: false });
    return {
      ...real,
      resolve: (host, options) =>
        host === 'api.example.test'
          ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
          : real.resolve(host, options),
    };
  }
  const request: ReadRequest = {
    dataset: 'items',
    properties: [],
    syncType: 'FullRefresh',
    cursorField: null,
    state: null,
  };

  it.each([
    (port: number) => `http://127.0.0.1:${port}/target`,
    (port: number) => `http://localhost:${port}/target`,
    (port: number) => `http://[::ffff:7f00:1]:${port}/target`,
    (port: number) => `http://2130706433:${port}/target`,
    (port: number) => `http://0x7f.0.0.1:${port}/target`,
    (port: number) => `//127.0.0.1:${port}/target`,
  ])('a redirect to loopback (%#) is refused and never requested', async (target) => {
    seen = await listener(httpAnswer('200 OK', '[{"leaked":true}]', { 'content-type': 'application/json' }));
    const source = await startApi({
      '/items': () => ({ status: 307, headers: { location: target(seen.port) } }),
    });
    peers.push(source);
    const port = new URL(source.baseUrl).port;
    const connector = createRestApiConnector(publicSource());
    const ctx = await makeContext();
    try {
      const config = rest(`http://api.example.test:${port}`);
      const result = await connector.check(config, ctx);
      expect(result).toMatchObject({ ok: false, message: expect.stringMatching(POLICY) as unknown });
      const error = await collect(connector.read(config, request, ctx)).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(POLICY);
      expect(source.seen('/items').length).toBeGreaterThan(0);
      expect(seen.connections()).toBe(0);
    } finally {
      await ctx.cleanup();
    }
  });

  it('a Link header next page on loopback is refused and never requested', async () => {
    seen = await listener(httpAnswer('200 OK', '[{"id":99}]', { 'content-type': 'application/json' }));
    const source = await startApi({
      '/items': () => ({
        headers: { link: `<http://localhost:${seen.port}/items?p=2>; rel="next"` },
        body: [{ id: 1 }],
      }),
    });
    peers.push(source);
    const port = Number(new URL(source.baseUrl).port);
    const connector = createRestApiConnector(publicSource());
    const ctx = await makeContext();
    try {
      const config = rest(`http://api.example.test:${port}`, {
        streams: [{ name: 'items', path: '/items', pagination: { type: 'link_header' } }],
      });
      const error = await collect(connector.read(config, request, ctx)).catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        `Refused by the network policy: localhost:${seen.port} is a loopback or private network address, ` +
          'which this server does not allow connections to (CONNECTOR_PRIVATE_NETWORKS)',
      );
      expect(seen.connections()).toBe(0);
    } finally {
      await ctx.cleanup();
    }
  });

  it('only http(s) is followed, and redirects end after 10', async () => {
    const source = await startApi({
      '/to-file': () => ({ status: 302, headers: { location: 'file:///etc/passwd' } }),
      '/next-file': () => ({ headers: { link: '<file:///etc/passwd>; rel="next"' }, body: [{ id: 1 }] }),
      '/loop': () => ({ status: 301, headers: { location: '/loop' } }),
    });
    peers.push(source);
    const connector = createRestApiConnector(createOutboundPolicy({ allowPrivateNetworks: true }));
    const ctx = await makeContext();
    const where = new URL(source.baseUrl).host;
    const failure = async (stream: Record<string, unknown>) => {
      const config = rest(source.baseUrl, { streams: [{ name: 'items', ...stream }] });
      return ((await collect(connector.read(config, request, ctx)).catch((e: unknown) => e)) as Error).message;
    };
    try {
      expect(await failure({ path: '/to-file' })).toBe(`${where} redirected to an address that is not http(s)`);
      expect(await failure({ path: '/next-file', pagination: { type: 'link_header' } })).toBe(
        'Only http and https addresses are fetched, not file:',
      );
      expect(await failure({ path: '/loop' })).toBe(`${where} redirected more than 10 times`);
      expect(source.seen('/loop')).toHaveLength(11);
    } finally {
      await ctx.cleanup();
    }
  });

  it('credentials go only to the base URL origin: a redirect to another host gets none', async () => {
    const other = await startApi({ '/landing': () => ({ body: [{ id: 1 }] }) });
    peers.push(other);
    const source = await startApi({
      // Same address, another origin (host name): the credentials must not follow.
      '/items': () => ({
        status: 302,
        headers: { location: other.baseUrl.replace('127.0.0.1', 'localhost') + '/landing' },
      }),
    });
    peers.push(source);
    const connector = createRestApiConnector(createOutboundPolicy({ allowPrivateNetworks: true }));
    const ctx = await makeContext();
    try {
      const config = rest(source.baseUrl, { authentication: { type: 'bearer', token: SECRET } });
      expect(await connector.check(config, ctx)).toEqual({ ok: true });
      expect(source.seen('/items')[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(other.seen('/landing')[0]?.headers.authorization).toBeUndefined();
    } finally {
      await ctx.cleanup();
    }
  });
});

describe('errors never repeat what the remote answered', () => {
  it('a REST error answer: status and standard reason only, at the check and in the run log', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    for (const [status, expected] of [
      [`400 ${SECRET}`, 'Request refused (HTTP 400 Bad Request)'],
      [`401 ${SECRET}`, 'Authentication failed (HTTP 401 Unauthorized)'],
      [`404 ${SECRET}`, 'Not found (HTTP 404 Not Found)'],
      [`418 ${SECRET}`, "Request refused (HTTP 418 I'm a Teapot)"],
      [`503 ${SECRET}`, '(HTTP 503 Service Unavailable)'],
      [`200 OK`, 'is not JSON'],
    ] as const) {
      const peer = await listener(httpAnswer(status, `{"error":"${SECRET}", "token":"${SECRET}"} trailing`));
      const message = expectError(await create(t, cookie, 'REST API', rest(`http://127.0.0.1:${peer.port}`)), 400);
      expect(message).toContain(expected);
      expect(message).toContain(`127.0.0.1:${peer.port}`);
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain('trailing');
    }

    // A source that answered at the check and fails later: the run log names the status only.
    let failing = false;
    const source = await startApi({
      '/items': () => (failing ? { status: 403, body: { error: SECRET } } : { body: [{ id: 1 }] }),
    });
    peers.push(source);
    const created = ok(await create(t, cookie, 'REST API', rest(source.baseUrl)), 201);
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, created.id, { items: {} });
    failing = true;
    const run = await syncNow(t, cookie, created.id);
    expect(run.status).toBe('Failed');
    const log = run.logs.join('\n');
    expect(log).toContain('Authentication failed (HTTP 403 Forbidden)');
    expect(log).not.toContain(SECRET);
    const job = JSON.stringify(
      ok(await api(t, cookie, 'GET', `/api/integrations/${created.id}/jobs?Page=1&PageSize=50`)),
    );
    expect(job).not.toContain(SECRET);
  });

  it('PostgreSQL: whatever else answers on the port is only "did not answer as a PostgreSQL server"', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const answers = [
      httpAnswer(`400 ${SECRET}`, SECRET),
      (s: Socket) => s.end(`SSH-2.0-${SECRET}\r\n`),
      (s: Socket) => s.end(),
      (s: Socket) => s.once('data', () => s.end(Buffer.from(`R${SECRET}`))),
    ];
    const messages = new Set<string>();
    for (const answer of answers) {
      const peer = await listener(answer);
      const message = expectError(await create(t, cookie, 'PostgreSQL', postgres('127.0.0.1', peer.port)), 400);
      expect(message).not.toContain(SECRET);
      messages.add(message.replace(String(peer.port), 'PORT'));
    }
    expect([...messages]).toEqual(['127.0.0.1:PORT did not answer as a PostgreSQL server']);

    // A server's own error before the login (here a fake one) is told by its kind, not its words.
    const fake = await listener((s) =>
      s.once('data', () => {
        const fields = Buffer.from(`SFATAL\0C28P01\0M${SECRET}\0\0`);
        const length = Buffer.alloc(4);
        length.writeUInt32BE(fields.length + 4);
        s.end(Buffer.concat([Buffer.from('E'), length, fields]));
      }),
    );
    const message = expectError(await create(t, cookie, 'PostgreSQL', postgres('127.0.0.1', fake.port)), 400);
    expect(message).toBe(`Authentication failed for user "postgres" at 127.0.0.1:${fake.port}`);

    const closed = await listener();
    await closed.close();
    const refused = expectError(await create(t, cookie, 'PostgreSQL', postgres('127.0.0.1', closed.port)), 400);
    expect(refused).toBe(`Connection refused by 127.0.0.1:${closed.port}`);
  });

  it('PostgreSQL: SSL required against another service fails at once, in the same words', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const started = Date.now();
    // An SSH server greets and keeps the connection open; an HTTP server answers and closes.
    for (const answer of [(s: Socket) => s.write(`SSH-2.0-${SECRET}\r\n`), httpAnswer(`400 ${SECRET}`, SECRET)]) {
      const peer = await listener(answer);
      const configuration = { ...postgres('127.0.0.1', peer.port), ssl_mode: 'require' };
      const message = expectError(await create(t, cookie, 'PostgreSQL', configuration), 400);
      expect(message).toBe(`127.0.0.1:${peer.port} did not answer as a PostgreSQL server`);
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("PostgreSQL: an empty password stays empty; the server's own PGPASSWORD is never sent", async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const message = (type: string, body: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(body.length + 4);
      return Buffer.concat([Buffer.from(type), length, body]);
    };
    // Asks for a cleartext password, then refuses whatever comes.
    const peer = await listener((s) => {
      s.once('data', () => {
        const cleartext = Buffer.alloc(4);
        cleartext.writeUInt32BE(3);
        s.write(message('R', cleartext));
        s.once('data', () => s.end(message('E', Buffer.from('SFATAL\0C28P01\0Mno\0\0'))));
      });
    });
    const saved = process.env.PGPASSWORD;
    process.env.PGPASSWORD = SECRET;
    try {
      const { password: _omitted, ...configuration } = postgres('127.0.0.1', peer.port);
      const answer = expectError(await create(t, cookie, 'PostgreSQL', configuration), 400);
      expect(answer).toBe(`Authentication failed for user "postgres" at 127.0.0.1:${peer.port}`);
      expect(peer.received()).toContain('postgres'); // the startup message and the password message did arrive
      expect(peer.received()).not.toContain(SECRET);
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
  });

  it('SFTP: whatever else answers on the port is only "did not answer as an SFTP (SSH) server"', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const answers = [
      (s: Socket) => s.end(`HTTP/1.1 400 ${SECRET}\r\n\r\n${SECRET}`),
      (s: Socket) => s.write(`SSH-1.0-${SECRET}\r\n`),
      (s: Socket) => s.write(`SSH-2.0-${SECRET}\r\n${SECRET.repeat(20)}`),
      (s: Socket) => s.end(),
    ];
    const messages = new Set<string>();
    for (const answer of answers) {
      const peer = await listener(answer);
      const message = expectError(await create(t, cookie, 'SFTP', sftp('127.0.0.1', peer.port)), 400);
      expect(message).not.toContain(SECRET);
      messages.add(message.replace(String(peer.port), 'PORT'));
    }
    expect([...messages]).toEqual(['127.0.0.1:PORT did not answer as an SFTP (SSH) server']);
  });
});

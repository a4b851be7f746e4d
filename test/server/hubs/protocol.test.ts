/**
 * The hub transport speaks ASP.NET Core SignalR's JSON hub protocol: the official client connects,
 * invokes and receives; raw sockets check the wire (handshake, ping, close, limits).
 */
import { HttpTransportType } from '@microsoft/signalr';
import { describe, expect, it } from 'vitest';
import { HubError, type HubDefinition } from '../../../src/server/hubs/definitions';
import { HUB_LIMITS } from '../../../src/shared/limits';
import { call, me, signIn } from '../helpers';
import { hubClient, nextInvocation, rawHub, startHubApp, upgradeStatus } from './helpers';

const HANDSHAKE = '{"protocol":"json","version":1}';

/** A hub of the tests' own, with methods to invoke (the notifications hub only pushes). */
function testHub(calls: unknown[][]): HubDefinition {
  return {
    name: 'chatbot',
    methods: {
      Echo: (_caller, args) => args,
      WhoAmI: (caller) => ({ userId: caller.userId, accountId: caller.accountId }),
      Later: async (_caller, args) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        calls.push(args);
      },
      Refuse: () => {
        throw new HubError('Not in this conversation.');
      },
      Crash: () => {
        throw new Error('secret internals');
      },
    },
  };
}

describe('negotiate', () => {
  it('answers a connection token for WebSockets with text frames only', async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    const res = await call<Record<string, unknown>>(
      t.server,
      'POST',
      '/api/hubs/notifications/negotiate?negotiateVersion=1',
      {
        cookie,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      connectionId: expect.any(String),
      connectionToken: expect.any(String),
      negotiateVersion: 1,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
    });
    expect(res.body.connectionToken).not.toBe(res.body.connectionId);
  });

  it('refuses another negotiate version with an error the client shows', async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    for (const query of ['', '?negotiateVersion=0', '?negotiateVersion=2']) {
      const res = await call(t.server, 'POST', `/api/hubs/notifications/negotiate${query}`, { cookie });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ error: 'Only negotiateVersion=1 is supported.' });
    }
  });

  it('refuses a caller without a session (401) and another site (403)', async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    const url = '/api/hubs/notifications/negotiate?negotiateVersion=1';
    expect((await call(t.server, 'POST', url)).status).toBe(401);
    expect((await call(t.server, 'POST', url, { cookie: 'ws_session=forged-token-value' })).status).toBe(401);
    const foreign = await call(t.server, 'POST', url, { cookie, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    // A script sends no Origin: allowed, as the official client in Node does.
    expect((await call(t.server, 'POST', url, { cookie, headers: { origin: '' } })).status).toBe(200);
  });
});

describe('the official client', () => {
  it('connects with the session cookie and receives what the server sends to its user', async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    const user = await me(t, cookie);
    const client = hubClient(t.base, 'notifications', cookie);
    await client.start();
    expect(client.state).toBe('Connected');
    expect(t.deps.hubs.count()).toBe(1);
    const got = nextInvocation(client, 'ReceiveNotification');
    t.deps.hubs.toUser('notifications', user.id, 'ReceiveNotification', { title: 'Sync failed', n: 1 });
    expect(await got).toEqual([{ title: 'Sync failed', n: 1 }]);
    await client.stop();
    await expect.poll(() => t.deps.hubs.count()).toBe(0);
  });

  it('invokes server methods: results, errors a method means to show, and nothing else of a crash', async () => {
    const calls: unknown[][] = [];
    const t = await startHubApp({ hubs: { extra: [testHub(calls)] } });
    const cookie = await signIn(t, 'owner@example.com');
    const user = await me(t, cookie);
    const client = hubClient(t.base, 'chatbot', cookie);
    await client.start();
    expect(await client.invoke('Echo', 'a', 2, { b: [true] })).toEqual(['a', 2, { b: [true] }]);
    // Method names are case-insensitive, as in ASP.NET Core.
    expect(await client.invoke('whoami')).toEqual({ userId: user.id, accountId: user.currentAccountId });
    // A void method completes without a result.
    expect(await client.invoke('Later', 'x')).toBeUndefined();
    expect(calls).toEqual([['x']]);
    // A non-blocking send gets no completion but runs.
    await client.send('Later', 'y');
    await expect.poll(() => calls).toEqual([['x'], ['y']]);
    await expect(client.invoke('Refuse')).rejects.toThrow('Not in this conversation.');
    const crash = client.invoke('Crash');
    await expect(crash).rejects.toThrow("An unexpected error occurred invoking 'Crash' on the server.");
    await expect(crash).rejects.not.toThrow('secret');
    await expect(client.invoke('Missing')).rejects.toThrow("Unknown hub method 'Missing'.");
    // Still connected after every refusal.
    expect(await client.invoke('Echo', 1)).toEqual([1]);
  });

  it('refuses the Server-Sent Events and long polling transports', async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    for (const transport of [HttpTransportType.LongPolling, HttpTransportType.ServerSentEvents]) {
      const client = hubClient(t.base, 'notifications', cookie, { transport });
      await expect(client.start()).rejects.toThrow(
        /Unable to connect to the server with any of the available transports/,
      );
    }
    // Asked without an upgrade (how those transports would poll or stream), the hub says why not.
    const poll = await call<{ message: string }>(t.server, 'GET', '/api/hubs/notifications?id=x', { cookie });
    expect(poll.status).toBe(400);
    expect(poll.body.message).toMatch(/WebSocket connections only/);
    const stream = await call(t.server, 'GET', '/api/hubs/notifications?id=x', {
      cookie,
      headers: { accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(400);
  });

  it('is refused from another site, and without a session', async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    const foreign = hubClient(t.base, 'notifications', cookie, { headers: { origin: 'https://evil.example' } });
    await expect(foreign.start()).rejects.toThrow(/403/);
    const anonymous = hubClient(t.base, 'notifications', '');
    await expect(anonymous.start()).rejects.toThrow(/401/);
    // This site's own pages connect.
    const own = hubClient(t.base, 'notifications', cookie, { headers: { origin: 'http://localhost:3000' } });
    await own.start();
    expect(own.state).toBe('Connected');
  });
});

describe('the WebSocket upgrade', () => {
  it('needs the session that negotiated, this site as Origin, and a token used once', async () => {
    const t = await startHubApp({ env: { SIGNUP: 'open' } });
    const cookie = await signIn(t, 'owner@example.com');
    const other = await signIn(t, 'other@example.com');
    const negotiate = async () => {
      const res = await call<{ connectionToken: string }>(
        t.server,
        'POST',
        '/api/hubs/notifications/negotiate?negotiateVersion=1',
        { cookie },
      );
      return `${t.base.replace('http', 'ws')}/api/hubs/notifications?id=${res.body.connectionToken}`;
    };
    const url = await negotiate();
    expect((await upgradeStatus(url, {})).status).toBe(401);
    expect((await upgradeStatus(url, { cookie: other })).status).toBe(404);
    const foreign = await upgradeStatus(url, { cookie, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toEqual({ message: expect.stringMatching(/another site/) });
    expect((await upgradeStatus(url, { cookie, origin: 'http://localhost:3000' })).status).toBe(101);
    // Spent.
    expect((await upgradeStatus(url, { cookie })).status).toBe(404);
    expect(
      (await upgradeStatus(`${t.base.replace('http', 'ws')}/api/hubs/notifications?id=made-up`, { cookie })).status,
    ).toBe(404);
  });
});

describe('the wire', () => {
  it('answers the JSON handshake with {} and refuses another protocol with an error', async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    const ok = await rawHub(t.base, cookie);
    ok.sendRecord(HANDSHAKE);
    expect(await ok.next()).toBe('{}');
    expect(t.deps.hubs.count()).toBe(1);

    const pack = await rawHub(t.base, cookie);
    pack.sendRecord('{"protocol":"messagepack","version":1}');
    expect(JSON.parse(await pack.next())).toEqual({
      error: "The protocol 'messagepack version 1' is not supported: this server speaks json version 1 only.",
    });
    expect(await pack.closed).toBe(1000);
    // Refused before joining any group.
    expect(t.deps.hubs.count()).toBe(1);

    const garbled = await rawHub(t.base, cookie);
    garbled.sendRecord('not json');
    expect(JSON.parse(await garbled.next())).toEqual({ error: expect.stringMatching(/Handshake was malformed/) });
  });

  it('pings an idle client every keep-alive interval', async () => {
    const t = await startHubApp({ hubs: { keepAliveMs: 300, serverTimeoutMs: 60_000 } });
    const cookie = await signIn(t, 'owner@example.com');
    const hub = await rawHub(t.base, cookie);
    hub.sendRecord(HANDSHAKE);
    expect(await hub.next()).toBe('{}');
    const started = Date.now();
    expect(JSON.parse(await hub.next())).toEqual({ type: 6 });
    expect(JSON.parse(await hub.next())).toEqual({ type: 6 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('closes a client silent for the server timeout, with the reason, and keeps one that pings', async () => {
    const t = await startHubApp({ hubs: { keepAliveMs: 200, serverTimeoutMs: 3_000 } });
    const cookie = await signIn(t, 'owner@example.com');
    const silent = await rawHub(t.base, cookie);
    const talking = await rawHub(t.base, cookie);
    silent.sendRecord(HANDSHAKE);
    talking.sendRecord(HANDSHAKE);
    const pinger = setInterval(() => talking.sendRecord('{"type":6}'), 300);
    try {
      const records: unknown[] = [];
      const code = await Promise.race([
        silent.closed,
        (async () => {
          for (;;) records.push(JSON.parse(await silent.next()));
        })().catch(() => silent.closed),
      ]);
      expect(code).toBe(1000);
      expect(records).toContainEqual({
        type: 7,
        error: 'Server timeout elapsed without receiving a message from the client.',
      });
      expect(talking.ws.readyState).toBe(talking.ws.OPEN);
      expect(t.deps.hubs.count()).toBe(1);
    } finally {
      clearInterval(pinger);
    }
  });

  it(`refuses a message larger than the ${HUB_LIMITS.maxMessageBytes}-byte buffer`, async () => {
    const t = await startHubApp({ hubs: { extra: [testHub([])] } });
    const cookie = await signIn(t, 'owner@example.com');
    const hub = await rawHub(t.base, cookie, { hub: 'chatbot' });
    hub.sendRecord(HANDSHAKE);
    expect(await hub.next()).toBe('{}');
    // Just inside the buffer: answered.
    const fits = 'x'.repeat(HUB_LIMITS.maxMessageBytes - 200);
    hub.sendRecord(JSON.stringify({ type: 1, invocationId: '1', target: 'Echo', arguments: [fits] }));
    expect(JSON.parse(await hub.next())).toEqual({ type: 3, invocationId: '1', result: [fits] });
    hub.sendRecord(
      JSON.stringify({
        type: 1,
        invocationId: '2',
        target: 'Echo',
        arguments: ['x'.repeat(HUB_LIMITS.maxMessageBytes)],
      }),
    );
    expect(JSON.parse(await hub.next())).toEqual({ type: 7, error: 'Message larger than the 100000-byte buffer.' });
    await hub.closed;

    // Far past it, the socket layer refuses the frame itself (1009 Message Too Big).
    const huge = await rawHub(t.base, cookie, { hub: 'chatbot' });
    huge.sendRecord(HANDSHAKE);
    await huge.next();
    huge.ws.send('x'.repeat(HUB_LIMITS.maxMessageBytes * 3));
    expect(await huge.closed).toBe(1009);

    // The official client learns why its connection ended.
    const client = hubClient(t.base, 'chatbot', cookie);
    await client.start();
    const closed = new Promise<Error | undefined>((resolve) => client.onclose(resolve));
    void client.invoke('Echo', 'x'.repeat(HUB_LIMITS.maxMessageBytes + 10)).catch(() => undefined);
    expect((await closed)?.message).toMatch(/Message larger than the 100000-byte buffer/);
  });

  it('answers a streaming invocation with an error and closes on a malformed message', async () => {
    const t = await startHubApp({ hubs: { extra: [testHub([])] } });
    const cookie = await signIn(t, 'owner@example.com');
    const hub = await rawHub(t.base, cookie, { hub: 'chatbot' });
    hub.sendRecord(HANDSHAKE);
    await hub.next();
    hub.sendRecord('{"type":4,"invocationId":"s1","target":"Echo","arguments":[]}');
    expect(JSON.parse(await hub.next())).toEqual({
      type: 3,
      invocationId: 's1',
      error: 'Streaming invocations are not supported by this hub.',
    });
    hub.sendRecord('{"type":"what"}');
    expect(JSON.parse(await hub.next())).toEqual({ type: 7, error: 'Message was not a valid hub message.' });
    expect(await hub.closed).toBe(1000);
  });
});

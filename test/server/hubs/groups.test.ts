/**
 * Connections join their user's and their current account's groups; areas send to a user, an
 * account or one connection, and nobody else receives it. Account switches move connections,
 * signing out closes them, and clients reconnect to a restarted server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HubConnection } from '@microsoft/signalr';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/shared/limits';
import { addMember, call, makeTeam, me, signIn } from '../helpers';
import { hubClient, nextInvocation, startHubApp, type HubApp } from './helpers';

/** Each connection's received 'Event' payloads, in order. */
function recorder(connections: Record<string, HubConnection>) {
  const received: Record<string, unknown[]> = {};
  for (const [name, c] of Object.entries(connections)) {
    received[name] = [];
    c.on('Event', (payload: unknown) => received[name]?.push(payload));
  }
  return received;
}

/**
 * Waits until every connection received a fence sent after the messages under test: a socket keeps
 * order, so whatever did not arrive before its fence was never sent to it.
 */
async function fence(t: HubApp, connections: Record<string, HubConnection>, userIds: string[]) {
  const fences = Object.values(connections).map((c) => nextInvocation(c, 'Fence'));
  for (const id of new Set(userIds)) t.deps.hubs.toUser('notifications', id, 'Fence');
  await Promise.all(fences);
}

async function connected(t: HubApp, cookie: string): Promise<HubConnection> {
  const c = hubClient(t.base, 'notifications', cookie);
  await c.start();
  return c;
}

describe('hub groups', () => {
  it('toUser reaches every connection of that user only; toAccount that account only; toConnection one', async () => {
    const t = await startHubApp({ env: { SIGNUP: 'open' } });
    const team = await makeTeam(t);
    const outsider = await signIn(t, 'outsider@example.com');
    const outsiderId = (await me(t, outsider)).id;
    const outsiderAccount = (await me(t, outsider)).currentAccountId ?? '';
    const ownerTab2 = await signIn(t, team.owner.email);
    const connections = {
      owner1: await connected(t, team.owner.cookie),
      owner2: await connected(t, ownerTab2),
      admin: await connected(t, team.admin.cookie),
      outsider: await connected(t, outsider),
    };
    const received = recorder(connections);
    const everyone = [team.owner.userId, team.admin.userId, outsiderId];

    t.deps.hubs.toUser('notifications', team.owner.userId, 'Event', 'to owner');
    await fence(t, connections, everyone);
    expect(received).toEqual({ owner1: ['to owner'], owner2: ['to owner'], admin: [], outsider: [] });

    t.deps.hubs.toAccount('notifications', team.accountId, 'Event', 'to team');
    t.deps.hubs.toAccount('notifications', outsiderAccount, 'Event', 'to outsider account');
    // Another hub's name reaches none of the notifications connections.
    t.deps.hubs.toAccount('chatbot', team.accountId, 'Event', 'other hub');
    await fence(t, connections, everyone);
    expect(received).toEqual({
      owner1: ['to owner', 'to team'],
      owner2: ['to owner', 'to team'],
      admin: ['to team'],
      outsider: ['to outsider account'],
    });

    const adminId = connections.admin.connectionId ?? '';
    expect(adminId).not.toBe('');
    t.deps.hubs.toConnection(adminId, 'Event', 'just this one');
    await fence(t, connections, everyone);
    expect(received.admin).toEqual(['to team', 'just this one']);
    expect(received.owner1).toEqual(['to owner', 'to team']);
  });

  it("an account switch moves the user's connections to the new account's group", async () => {
    const t = await startHubApp({ env: { SIGNUP: 'open' } });
    const team = await makeTeam(t);
    const carl = await signIn(t, 'carl@example.com');
    const carlAccount = (await me(t, carl)).currentAccountId ?? '';
    const carlMember = await addMember(t, team.owner.cookie, 'carl@example.com', ['admin']);
    // Accepting the invitation made the team Carl's current account, before he connects.
    const connections = { carl: await connected(t, carl), carlInvite: await connected(t, carlMember.cookie) };
    const received = recorder(connections);

    t.deps.hubs.toAccount('notifications', team.accountId, 'Event', 'team 1');
    await fence(t, connections, [carlMember.userId]);
    expect(received).toEqual({ carl: ['team 1'], carlInvite: ['team 1'] });

    const res = await call(t.server, 'POST', '/api/switch', { cookie: carl, body: { accountId: carlAccount } });
    expect(res.status).toBe(200);
    t.deps.hubs.toAccount('notifications', team.accountId, 'Event', 'team 2');
    t.deps.hubs.toAccount('notifications', carlAccount, 'Event', 'own 1');
    await fence(t, connections, [carlMember.userId]);
    // The current account is the user's: both of Carl's sessions moved.
    expect(received).toEqual({ carl: ['team 1', 'own 1'], carlInvite: ['team 1', 'own 1'] });

    // Removed from the team while it is current: his connections leave its group at once.
    await call(t.server, 'POST', '/api/switch', { cookie: carl, body: { accountId: team.accountId } });
    const removed = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie: team.owner.cookie,
      body: { userId: carlMember.userId },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    t.deps.hubs.toAccount('notifications', team.accountId, 'Event', 'team after removal');
    t.deps.hubs.toAccount('notifications', carlAccount, 'Event', 'own 2');
    await fence(t, connections, [carlMember.userId]);
    expect(received.carl).toEqual(['team 1', 'own 1', 'own 2']);
  });
});

describe('hub connections and sessions', () => {
  it("signing out closes that session's connections (no reconnect); other sessions stay", async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    const other = await signIn(t, 'owner@example.com');
    const leaving = hubClient(t.base, 'notifications', cookie, { reconnect: [0, 100, 100] });
    const staying = await connected(t, other);
    await leaving.start();
    let reconnecting = false;
    leaving.onreconnecting(() => (reconnecting = true));
    const closed = new Promise<Error | undefined>((resolve) => leaving.onclose(resolve));
    expect((await call(t.server, 'POST', '/api/logout', { cookie, body: {} })).status).toBeLessThan(300);
    expect((await closed)?.message).toMatch(/The session was signed out/);
    expect(reconnecting).toBe(false);
    expect(staying.state).toBe('Connected');
    expect(t.deps.hubs.count()).toBe(1);
  });

  it('a connection ends when the session it was opened with expires (no reconnect); a newer session stays', async () => {
    const t = await startHubApp();
    const cookie = await signIn(t, 'owner@example.com');
    const expiring = hubClient(t.base, 'notifications', cookie, { reconnect: [0, 100, 100] });
    await expiring.start();
    let reconnecting = false;
    expiring.onreconnecting(() => (reconnecting = true));
    const closed = new Promise<Error | undefined>((resolve) => expiring.onclose(resolve));
    // A day before the end of the first session, the user signs in again on another device.
    t.clock.advance((LIMITS.sessionDays - 1) * 24 * 3_600_000);
    const fresh = await connected(t, await signIn(t, 'owner@example.com'));
    expect(expiring.state).toBe('Connected');
    t.clock.advance(24 * 3_600_000 + 1);
    expect((await closed)?.message).toMatch(/The session has expired/);
    expect(reconnecting).toBe(false);
    expect(fresh.state).toBe('Connected');
    expect(t.deps.hubs.count()).toBe(1);
  });

  it("an admin's sign-out-everywhere closes every connection of that user", async () => {
    const t = await startHubApp();
    const team = await makeTeam(t);
    const adminConnection = await connected(t, team.admin.cookie);
    const ownerConnection = await connected(t, team.owner.cookie);
    const closed = new Promise<Error | undefined>((resolve) => adminConnection.onclose(resolve));
    const res = await call(t.server, 'POST', `/api/admin/users/${team.admin.userId}/sign-out-everywhere`, {
      cookie: team.owner.cookie,
      body: {},
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await closed)?.message).toMatch(/signed out/);
    expect(ownerConnection.state).toBe('Connected');
  });

  it('a client reconnects to the server restarted on the same port, then receives', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-hubs-restart-'));
    try {
      const first = await startHubApp({ dataDir });
      const cookie = await signIn(first, 'owner@example.com');
      const userId = (await me(first, cookie)).id;
      const client = hubClient(first.base, 'notifications', cookie, {
        reconnect: [0, 200, 500, 1000, 2000, 4000, 8000, 16000],
      });
      await client.start();
      const reconnecting = new Promise<void>((resolve) => client.onreconnecting(() => resolve()));
      const reconnected = new Promise<string | undefined>((resolve) => client.onreconnected(resolve));
      await first.close();
      await reconnecting;
      expect(first.deps.hubs.count()).toBe(0);

      const second = await startHubApp({ dataDir, port: first.port });
      const newId = await reconnected;
      expect(newId).toBeDefined();
      expect(client.state).toBe('Connected');
      await expect.poll(() => second.deps.hubs.count()).toBe(1);
      const got = nextInvocation(client, 'ReceiveNotification');
      second.deps.hubs.toUser('notifications', userId, 'ReceiveNotification', 'after restart');
      expect(await got).toEqual(['after restart']);
      await client.stop();
      await second.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

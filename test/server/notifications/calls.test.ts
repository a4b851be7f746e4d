import { describe, expect, it } from 'vitest';
import type { Notification, NotificationsPage } from '../../../src/shared/notifications';
import { notify, type NotifyEvent } from '../../../src/server/modules/notifications/notify';
import type { HubConnection } from '../../../src/server/hubs/hub-sender';
import { call, expectError, trpcMutation, trpcQuery, type TestApp, type TrpcData } from '../helpers';
import { appWithTwoTeams, appWithTeam, ok } from '../static-tables/helpers';

const event = (accountId: string, userIds: string[], n: number): NotifyEvent => ({
  accountId,
  userIds,
  kind: 'SyncFailed',
  title: `Title ${n}`,
  body: `Body ${n}`,
  severity: 'Error',
  target: { type: 'Integration', id: `integration-${n}` },
});

async function count(t: TestApp, cookie: string, accountId?: string): Promise<number> {
  const query = accountId ? `?accountId=${accountId}` : '';
  return ok(await call<{ totalCount: number }>(t.server, 'GET', `/api/notifications/count${query}`, { cookie }))
    .totalCount;
}

async function page(t: TestApp, cookie: string, query = ''): Promise<NotificationsPage> {
  return ok(await call<NotificationsPage>(t.server, 'GET', `/api/notifications${query}`, { cookie }));
}

describe('notification calls', () => {
  it('lists newest first in pages of 5 in the paged shape, with the entity of the spec', async () => {
    const { t, team } = await appWithTeam();
    const user = team.readOnly;
    for (let n = 1; n <= 7; n++) {
      await notify(t.deps, event(team.accountId, [user.userId], n));
      t.clock.advance(1_000);
    }
    const first = await page(t, user.cookie);
    expect(first).toMatchObject({ page: 1, pageSize: 5, count: 7, totalPages: 2, hasMore: true });
    expect(first.data.map((n) => n.title)).toEqual(['Title 7', 'Title 6', 'Title 5', 'Title 4', 'Title 3']);
    expect(first.data[0]).toEqual({
      id: expect.any(String),
      accountId: team.accountId,
      kind: 'SyncFailed',
      title: 'Title 7',
      body: 'Body 7',
      severity: 'Error',
      createdAt: '2026-03-04T10:00:06.000Z',
      readAt: null,
      target: { type: 'Integration', id: 'integration-7' },
    });
    const second = await page(t, user.cookie, '?Page=2&PageSize=5');
    expect(second).toMatchObject({ page: 2, pageSize: 5, count: 7, totalPages: 2, hasMore: false });
    expect(second.data.map((n) => n.title)).toEqual(['Title 2', 'Title 1']);
    expect((await page(t, user.cookie, '?page=1&pageSize=3')).data).toHaveLength(3);
    expectError(await call(t.server, 'GET', '/api/notifications?Page=0', { cookie: user.cookie }), 400);
    expectError(await call(t.server, 'GET', '/api/notifications'), 401);
  });

  it('counts unread per account or across accounts; the list filters by account too', async () => {
    const { t, a, b } = await appWithTwoTeams();
    // a's reader joins b too, so one user has notifications in two accounts.
    const reader = a.readOnly;
    const invited = await call(t.server, 'POST', '/api/accounts/invite', {
      cookie: b.owner.cookie,
      body: { email: reader.email, roles: ['read_only'], name: '' },
    });
    expect(invited.status).toBe(204);
    const { inviteLinkIn, lastMailTo } = await import('../helpers');
    const link = inviteLinkIn(lastMailTo(t, reader.email));
    ok(
      await call(t.server, 'POST', `/api/accounts/${link.accountId}/invite/accept`, { body: { token: link.token } }),
      204,
    );
    await notify(t.deps, event(a.accountId, [reader.userId], 1));
    await notify(t.deps, event(a.accountId, [reader.userId], 2));
    await notify(t.deps, event(b.accountId, [reader.userId], 3));
    expect(await count(t, reader.cookie, a.accountId)).toBe(2);
    expect(await count(t, reader.cookie, b.accountId)).toBe(1);
    expect(await count(t, reader.cookie)).toBe(3);
    expect((await page(t, reader.cookie, `?AccountId=${b.accountId}`)).data.map((n) => n.title)).toEqual(['Title 3']);
    // Another user's count is theirs alone.
    expect(await count(t, a.admin.cookie, a.accountId)).toBe(0);
  });

  it('marks one read (only the caller’s own: another user’s id answers 404), then all of an account', async () => {
    const { t, team } = await appWithTeam();
    const [one] = await notify(t.deps, event(team.accountId, [team.readOnly.userId], 1));
    await notify(t.deps, event(team.accountId, [team.readOnly.userId], 2));
    const [others] = await notify(t.deps, event(team.accountId, [team.admin.userId], 3));
    expect(await count(t, team.readOnly.cookie, team.accountId)).toBe(2);

    expectError(
      await call(t.server, 'PUT', `/api/notifications/${others!.id}/read`, { cookie: team.readOnly.cookie }),
      404,
    );
    expectError(
      await call(t.server, 'PUT', '/api/notifications/no-such-id/read', { cookie: team.readOnly.cookie }),
      404,
    );
    expect(await count(t, team.admin.cookie, team.accountId)).toBe(1);

    t.clock.advance(5_000);
    ok(await call(t.server, 'PUT', `/api/notifications/${one!.id}/read`, { cookie: team.readOnly.cookie }), 204);
    expect(await count(t, team.readOnly.cookie, team.accountId)).toBe(1);
    const listed = (await page(t, team.readOnly.cookie)).data.find((n) => n.id === one!.id);
    expect(listed?.readAt).toBe('2026-03-04T10:00:05.000Z');

    ok(
      await call(t.server, 'POST', '/api/notifications/read', {
        cookie: team.readOnly.cookie,
        body: { accountId: team.accountId },
      }),
      204,
    );
    expect(await count(t, team.readOnly.cookie, team.accountId)).toBe(0);
    // Marking all read touched only the caller's notifications.
    expect(await count(t, team.admin.cookie, team.accountId)).toBe(1);
    expectError(
      await call(t.server, 'POST', '/api/notifications/read', { cookie: team.readOnly.cookie, body: {} }),
      400,
    );
  });

  it('serves the same calls over tRPC', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.readOnly.cookie;
    const [one] = await notify(t.deps, event(team.accountId, [team.readOnly.userId], 1));
    const counted = await trpcQuery<TrpcData<{ totalCount: number }>>(
      t,
      'notifications.count',
      { accountId: team.accountId },
      cookie,
    );
    expect(counted.body.result.data.totalCount).toBe(1);
    const listed = await trpcQuery<TrpcData<NotificationsPage>>(
      t,
      'notifications.list',
      { accountId: team.accountId },
      cookie,
    );
    expect(listed.body.result.data.data.map((n) => n.id)).toEqual([one!.id]);
    const read = await trpcMutation<TrpcData<Notification>>(t, 'notifications.markRead', { id: one!.id }, cookie);
    expect(read.body.result.data.readAt).not.toBeNull();
    const foreign = await trpcMutation(t, 'notifications.markRead', { id: one!.id }, team.admin.cookie);
    expect(foreign.status).toBe(404);
    await notify(t.deps, event(team.accountId, [team.readOnly.userId], 2));
    const all = await trpcMutation<TrpcData<{ count: number }>>(
      t,
      'notifications.markAllRead',
      { accountId: team.accountId },
      cookie,
    );
    expect(all.body.result.data.count).toBe(1);
  });
});

describe('notify()', () => {
  it('writes one row per recipient (only members; writers when asked) and pushes each to its user', async () => {
    const { t, a, b } = await appWithTwoTeams();
    const pushed: { userId: string; target: string; args: unknown[] }[] = [];
    for (const member of [a.owner, a.admin, a.readOnly, b.owner]) {
      const connection: HubConnection = {
        id: `c-${member.userId}`,
        hub: 'notifications',
        userId: member.userId,
        accountId: null,
        sessionHash: `s-${member.userId}`,
        // One invocation record of the hub protocol, ended by 0x1E.
        send: (record) => {
          const message = JSON.parse(record.slice(0, -1)) as { target: string; arguments: unknown[] };
          pushed.push({ userId: member.userId, target: message.target, args: message.arguments });
        },
        close: () => undefined,
      };
      t.deps.hubs.add(connection);
    }
    const created = await notify(t.deps, {
      ...event(a.accountId, [a.readOnly.userId, b.owner.userId], 1),
      toAccountWriters: true,
    });
    // b's owner is not a member of a: never told about a's events.
    expect(created.map((n) => n.accountId)).toEqual([a.accountId, a.accountId, a.accountId]);
    expect(pushed.map((p) => p.userId).sort()).toEqual([a.owner.userId, a.admin.userId, a.readOnly.userId].sort());
    for (const p of pushed) {
      expect(p.target).toBe('ReceiveNotification');
      expect(p.args).toEqual([expect.objectContaining({ title: 'Title 1', severity: 'Error', readAt: null })]);
    }
    expect(await count(t, b.owner.cookie, a.accountId)).toBe(0);
    // Writers only: the read_only member is left out.
    const writers = await notify(t.deps, { ...event(a.accountId, [], 2), toAccountWriters: true });
    expect(writers).toHaveLength(2);
  });

  it('respects each recipient’s preferences (all on by default), saved over REST and tRPC', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.readOnly.cookie;
    const prefs = ok(
      await call<{ kinds: Record<string, boolean> }>(t.server, 'GET', '/api/notifications/preferences', { cookie }),
    );
    expect(Object.values(prefs.kinds).every(Boolean)).toBe(true);
    expect(prefs.kinds.SyncFailed).toBe(true);
    const saved = ok(
      await call<{ kinds: Record<string, boolean> }>(t.server, 'PUT', '/api/notifications/preferences', {
        cookie,
        body: { kinds: { SyncFailed: false } },
      }),
    );
    expect(saved.kinds).toMatchObject({ SyncFailed: false, SyncRecovered: true });
    const created = await notify(t.deps, {
      ...event(team.accountId, [team.readOnly.userId, team.admin.userId], 1),
    });
    expect(created.map((n) => n.id)).toHaveLength(1);
    expect(await count(t, cookie)).toBe(0);
    expect(await count(t, team.admin.cookie)).toBe(1);
    // Other kinds still arrive; turning it back on (tRPC) lets it through again.
    await notify(t.deps, { ...event(team.accountId, [team.readOnly.userId], 2), kind: 'RoleChanged' });
    expect(await count(t, cookie)).toBe(1);
    const back = await trpcMutation<TrpcData<{ kinds: Record<string, boolean> }>>(
      t,
      'notifications.setPreferences',
      { kinds: { SyncFailed: true } },
      cookie,
    );
    expect(back.body.result.data.kinds.SyncFailed).toBe(true);
    await notify(t.deps, event(team.accountId, [team.readOnly.userId], 3));
    expect(await count(t, cookie)).toBe(2);
    expectError(
      await call(t.server, 'PUT', '/api/notifications/preferences', { cookie, body: { kinds: { Nope: true } } }),
      400,
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { NotificationsPage } from '../../../src/shared/notifications';
import { call, makeTeam, signIn } from '../helpers';
import { hubClient, nextInvocation, startHubApp } from '../hubs/helpers';

describe('notifications pushed on the hub', () => {
  it('a real event reaches its recipient’s official client as ReceiveNotification, the same entity the list answers', async () => {
    const t = await startHubApp({ env: { SIGNUP: 'open' } });
    await signIn(t, 'root@example.com');
    const team = await makeTeam(t);
    const reader = hubClient(t.base, 'notifications', team.readOnly.cookie);
    const admin = hubClient(t.base, 'notifications', team.admin.cookie);
    await Promise.all([reader.start(), admin.start()]);
    const adminGot: unknown[] = [];
    admin.on('ReceiveNotification', (n: unknown) => adminGot.push(n));
    const arrived = nextInvocation(reader, 'ReceiveNotification');

    const changed = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: team.owner.cookie,
      body: { userName: team.readOnly.email, roles: ['admin'] },
    });
    expect(changed.status).toBe(204);
    const [pushed] = await arrived;
    const listed = await call<NotificationsPage>(t.server, 'GET', '/api/notifications', {
      cookie: team.readOnly.cookie,
    });
    expect(listed.body.data).toHaveLength(1);
    expect(pushed).toEqual(listed.body.data[0]);
    expect(pushed).toMatchObject({ kind: 'RoleChanged', readAt: null, accountId: team.accountId });
    // Fence: anything sent to the admin before this would have arrived first.
    const fence = nextInvocation(admin, 'Fence');
    t.deps.hubs.toUser('notifications', team.admin.userId, 'Fence');
    await fence;
    expect(adminGot).toEqual([]);
  });
});

describe('read state pushed to the user’s other tabs', () => {
  it('marking one read, or all of an account read, reaches every tab of that user as NotificationsRead, and no one else', async () => {
    const t = await startHubApp({ env: { SIGNUP: 'open' } });
    await signIn(t, 'root@example.com');
    const team = await makeTeam(t);
    const otherTab = hubClient(t.base, 'notifications', team.readOnly.cookie);
    const admin = hubClient(t.base, 'notifications', team.admin.cookie);
    await Promise.all([otherTab.start(), admin.start()]);
    const adminGot: unknown[] = [];
    admin.on('NotificationsRead', (n: unknown) => adminGot.push(n));
    const promote = async (roles: string[]) => {
      const arrived = nextInvocation(otherTab, 'ReceiveNotification');
      const changed = await call(t.server, 'POST', '/api/accounts/role', {
        cookie: team.owner.cookie,
        body: { userName: team.readOnly.email, roles },
      });
      expect(changed.status).toBe(204);
      const [pushed] = await arrived;
      return pushed as { id: string };
    };

    const first = await promote(['admin']);
    let read = nextInvocation(otherTab, 'NotificationsRead');
    const one = await call(t.server, 'PUT', `/api/notifications/${first.id}/read`, { cookie: team.readOnly.cookie });
    expect(one.status).toBe(204);
    expect(await read).toEqual([{ ids: [first.id] }]);

    await promote(['read_only']);
    read = nextInvocation(otherTab, 'NotificationsRead');
    const all = await call(t.server, 'POST', '/api/notifications/read', {
      cookie: team.readOnly.cookie,
      body: { accountId: team.accountId },
    });
    expect(all.status).toBe(204);
    expect(await read).toEqual([{ accountId: team.accountId }]);

    const fence = nextInvocation(admin, 'Fence');
    t.deps.hubs.toUser('notifications', team.admin.userId, 'Fence');
    await fence;
    expect(adminGot).toEqual([]);
  });
});

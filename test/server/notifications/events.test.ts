import { describe, expect, it } from 'vitest';
import type { Notification, NotificationsPage } from '../../../src/shared/notifications';
import { ConnectorError, type ReadItem } from '../../../src/server/modules/integrations/connectors/types';
import { call, type TestApp } from '../helpers';
import { appWithTeam, ok } from '../static-tables/helpers';
import { createIntegration, selectDatasets, syncNow } from '../integrations/helpers';
import { customDefinition, registerTestSource } from '../integrations/test-connector';

async function notificationsOf(t: TestApp, cookie: string, accountId: string): Promise<Notification[]> {
  const res = await call<NotificationsPage>(t.server, 'GET', `/api/notifications?accountId=${accountId}&PageSize=50`, {
    cookie,
  });
  return ok(res).data;
}

describe('events that create notifications', () => {
  it('an accepted invitation tells the inviter, no one else', async () => {
    const { t, team } = await appWithTeam();
    // makeTeam: the owner invited the admin, then the reader; both accepted.
    const owner = await notificationsOf(t, team.owner.cookie, team.accountId);
    expect(owner.map((n) => n.kind)).toEqual(['InvitationAccepted', 'InvitationAccepted']);
    expect(owner[0]).toMatchObject({
      severity: 'Info',
      title: 'Invitation accepted',
      body: "Reader (reader@example.com) accepted your invitation to Owner's account as Read only.",
      target: { type: 'Account', id: team.accountId },
      readAt: null,
    });
    expect(owner[1]!.body).toBe("Admin (admin@example.com) accepted your invitation to Owner's account as Admin.");
    expect(await notificationsOf(t, team.admin.cookie, team.accountId)).toEqual([]);
    expect(await notificationsOf(t, team.readOnly.cookie, team.accountId)).toEqual([]);
  });

  it("a member's role change tells that member; changing one's own roles tells no one", async () => {
    const { t, team } = await appWithTeam();
    const changed = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: team.admin.cookie,
      body: { userName: team.readOnly.email, roles: ['admin'] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);
    const reader = await notificationsOf(t, team.readOnly.cookie, team.accountId);
    expect(reader).toHaveLength(1);
    expect(reader[0]).toMatchObject({
      kind: 'RoleChanged',
      severity: 'Info',
      title: 'Your roles changed',
      target: { type: 'Account', id: team.accountId },
    });
    expect(reader[0]!.body).toMatch(/changed your roles in .+ from Read only to Admin\.$/);
    expect(await notificationsOf(t, team.admin.cookie, team.accountId)).toEqual([]);
    const before = (await notificationsOf(t, team.owner.cookie, team.accountId)).length;
    // The owner changes their own roles (another owner first, so one stays).
    ok(
      await call(t.server, 'POST', '/api/accounts/role', {
        cookie: team.owner.cookie,
        body: { userName: team.admin.email, roles: ['owner'] },
      }),
      204,
    );
    ok(
      await call(t.server, 'POST', '/api/accounts/role', {
        cookie: team.owner.cookie,
        body: { userName: team.owner.email, roles: ['admin'] },
      }),
      204,
    );
    expect(await notificationsOf(t, team.owner.cookie, team.accountId)).toHaveLength(before);
    expect((await notificationsOf(t, team.admin.cookie, team.accountId)).map((n) => n.kind)).toEqual(['RoleChanged']);
  });

  it("a failed sync tells the account's writers (Error), a sync after failures tells them it recovered (Info)", async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    let fail = true;
    registerTestSource(t, 'airbyte', async function* (): AsyncIterable<ReadItem> {
      yield { kind: 'records', records: [{ id: 1, label: 'a', seen_at: '2026-01-01T00:00:00Z' }] };
      if (fail) throw new ConnectorError('Connection refused by 127.0.0.1:9.', 'TransientError');
    });
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Orders DB',
        schemaName: 'orders_db',
        configuration: { host: 'h', password: 'p' },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, {
      Items: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const before = (await notificationsOf(t, cookie, team.accountId)).length;

    const failed = await syncNow(t, cookie, integration.id);
    expect(failed.status).toBe('Failed');
    for (const writer of [team.owner, team.admin]) {
      const [latest] = await notificationsOf(t, writer.cookie, team.accountId);
      expect(latest).toMatchObject({
        kind: 'SyncFailed',
        severity: 'Error',
        title: 'Sync failed: Orders DB',
        body: 'Items: Connection refused by 127.0.0.1:9.',
        target: { type: 'Run', id: failed.id, parentId: integration.id },
      });
    }
    expect(await notificationsOf(t, team.readOnly.cookie, team.accountId)).toEqual([]);

    // A second failure tells them again; no "recovered" yet.
    t.clock.advance(60_000);
    await syncNow(t, cookie, integration.id);
    expect((await notificationsOf(t, cookie, team.accountId)).length).toBe(before + 2);

    fail = false;
    t.clock.advance(60_000);
    const recovered = await syncNow(t, cookie, integration.id);
    expect(recovered.status).toBe('Completed');
    const [latest] = await notificationsOf(t, team.admin.cookie, team.accountId);
    expect(latest).toMatchObject({
      kind: 'SyncRecovered',
      severity: 'Info',
      title: 'Sync recovered: Orders DB',
      target: { type: 'Run', id: recovered.id, parentId: integration.id },
    });
    // A success after a success says nothing.
    t.clock.advance(60_000);
    await syncNow(t, cookie, integration.id);
    expect((await notificationsOf(t, cookie, team.accountId)).length).toBe(before + 3);
    expect(await notificationsOf(t, team.readOnly.cookie, team.accountId)).toEqual([]);
  });

  it('a writer who turned sync failures off gets none; the others still do', async () => {
    const { t, team } = await appWithTeam();
    ok(
      await call(t.server, 'PUT', '/api/notifications/preferences', {
        cookie: team.admin.cookie,
        body: { kinds: { SyncFailed: false } },
      }),
    );
    const definition = await customDefinition(t);
    registerTestSource(t, 'airbyte', async function* (): AsyncIterable<ReadItem> {
      yield* [];
      throw new ConnectorError('Unreachable.', 'TransientError');
    });
    const integration = ok(
      await createIntegration(t, team.owner.cookie, {
        integrationDefinitionId: definition.id,
        name: 'Flaky',
        schemaName: 'flaky',
        configuration: { host: 'h', password: 'p' },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, team.owner.cookie, integration.id, { Items: {} });
    expect((await syncNow(t, team.owner.cookie, integration.id)).status).toBe('Failed');
    expect((await notificationsOf(t, team.owner.cookie, team.accountId))[0]?.kind).toBe('SyncFailed');
    expect(await notificationsOf(t, team.admin.cookie, team.accountId)).toEqual([]);
  });
});

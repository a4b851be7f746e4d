import { afterEach, describe, expect, it } from 'vitest';
import { INTEGRATION_MESSAGES } from '../../../src/shared/integrations';
import type { Notification, NotificationsPage } from '../../../src/shared/notifications';
import { call, expectError, makeApp, signIn } from '../helpers';
import { ok } from '../static-tables/helpers';
import { api, createIntegration, definitionNamed, selectDatasets, syncNow, type Integration } from './helpers';
import { startApi, type ApiPeer } from './peers/http-api';

const TOKEN = 'good-token';

describe('a source that refuses the saved credentials', () => {
  let peer: ApiPeer | undefined;
  afterEach(async () => peer?.close());

  it('stops the integration syncing, tells the writers, and saving new credentials resumes it', async () => {
    // A real REST API: orders for the right bearer token, 401 for any other.
    let accepted = TOKEN;
    peer = await startApi({
      '/v1/orders': (_query, req) =>
        req.headers.authorization === `Bearer ${accepted}`
          ? { body: [{ id: 1 }] }
          : { status: 401, body: { error: 'bad token' } },
    });
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const definition = await definitionNamed(t, cookie, 'REST API');
    const configuration = (token: string) => ({
      base_url: `${peer!.baseUrl}/v1`,
      streams: [{ name: 'orders', path: '/orders' }],
      authentication: { type: 'bearer', token },
      max_tries: 1,
    });
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Orders feed',
        schemaName: 'orders_feed',
        configuration: configuration(TOKEN),
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, { orders: {} });

    // The API's owner rotates the token: the next sync is refused.
    accepted = 'rotated-token';
    const failed = await syncNow(t, cookie, integration.id);
    expect(failed.status).toBe('Failed');
    const after = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    expect(after.requiresReAuthentication).toBe(true);
    const notifications = ok(
      await call<NotificationsPage>(t.server, 'GET', '/api/notifications?PageSize=5', { cookie }),
    ).data;
    expect(notifications[0]).toMatchObject<Partial<Notification>>({
      kind: 'SyncReauthRequired',
      severity: 'Error',
      title: 'Re-authentication required: Orders feed',
    });
    // Neither 'Sync data now' nor the scheduler runs it while the credentials are refused.
    const refused = await api(t, cookie, 'POST', `/api/integrations/${integration.id}/trigger`);
    expect(expectError(refused, 400)).toBe(INTEGRATION_MESSAGES.reauthRequired);

    // Saving the new token clears the mark, and the sync runs again.
    ok(
      await api(t, cookie, 'PUT', `/api/integrations/${integration.id}`, {
        name: 'Orders feed',
        configuration: configuration('rotated-token'),
      }),
    );
    const resumed = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    expect(resumed.requiresReAuthentication).toBe(false);
    expect((await syncNow(t, cookie, integration.id)).status).toBe('Completed');
    await t.close();
  });

  it('a failure that is not about credentials leaves the integration syncing', async () => {
    // Answers while the integration is created (its check), then the path is gone.
    let gone = false;
    peer = await startApi({
      '/v1/orders': () => (gone ? { status: 404, body: { error: 'moved' } } : { body: [{ id: 1 }] }),
    });
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const definition = await definitionNamed(t, cookie, 'REST API');
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Orders feed',
        schemaName: 'orders_feed',
        configuration: { base_url: `${peer.baseUrl}/v1`, streams: [{ name: 'orders', path: '/orders' }], max_tries: 1 },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, { orders: {} });
    gone = true;
    expect((await syncNow(t, cookie, integration.id)).status).toBe('Failed');
    const after = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    expect(after.requiresReAuthentication).toBe(false);
    expect((await syncNow(t, cookie, integration.id)).status).toBe('Failed');
    await t.close();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import type { SearchIndexAccount, SearchResponse } from '../../../src/shared/search';
import { searchIndexOf } from '../../../src/server/search/search-index';
import { call, makeApp, makeTeam, signIn, type TestApp } from '../helpers';
import { keyOf, ok, tableFromCsv } from '../static-tables/helpers';
import {
  api,
  createIntegration,
  definitionNamed,
  selectDatasets,
  syncNow,
  type Integration,
} from '../integrations/helpers';
import { startApi, type ApiPeer } from '../integrations/peers/http-api';

const search = async (t: TestApp, cookie: string, query: string) =>
  ok(await call<SearchResponse>(t.server, 'GET', `/api/search?query=${encodeURIComponent(query)}`, { cookie }));

const indexed = (t: TestApp) => searchIndexOf(t.deps).idle();

const indexOf = async (t: TestApp, cookie: string, accountId: string) =>
  ok(await call<SearchIndexAccount[]>(t.server, 'GET', '/api/admin/search-index', { cookie })).find(
    (a) => a.accountId === accountId,
  )!;

describe('Indexing after syncs', () => {
  let peer: ApiPeer | undefined;
  afterEach(async () => peer?.close());

  it('indexes the rows a sync added, replaces them on a full refresh, and drops them with the integration', async () => {
    let orders: Record<string, unknown>[] = [
      { id: 1, customer: 'Émile Zola', status: 'shipped' },
      { id: 2, customer: 'Ada Lovelace', status: 'pending' },
    ];
    peer = await startApi({ '/v1/orders': () => ({ body: orders }) });
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const accountId = (await call<{ currentAccountId: string }>(t.server, 'GET', '/api/me', { cookie })).body
      .currentAccountId;
    const definition = await definitionNamed(t, cookie, 'REST API');
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Orders feed',
        schemaName: 'orders_feed',
        configuration: { base_url: `${peer.baseUrl}/v1`, streams: [{ name: 'orders', path: '/orders' }] },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, {
      orders: { syncType: 'FullRefresh', dataIngestionType: 'Append' },
    });
    expect((await syncNow(t, cookie, integration.id)).status).toBe('Completed');
    await indexed(t);

    const emile = await search(t, cookie, 'emile');
    expect(emile.totalHits).toBe(1);
    expect(emile.groups[0]).toMatchObject({
      value: `${integration.id}.orders_feed.orders`,
      tableType: 'IntegrationDataset',
      tableName: 'orders',
      groupName: 'Orders feed',
      count: 1,
    });
    expect(emile.groups[0]?.sampleHits[0]?.document.fullRecord).toMatchObject({ customer: 'Émile Zola' });
    expect(emile.indexing.pending).toBe(0);

    // An appending sync: the new rows are found, the earlier ones still counted.
    orders = [{ id: 3, customer: 'Grace Hopper', status: 'shipped' }];
    expect((await syncNow(t, cookie, integration.id)).status).toBe('Completed');
    await indexed(t);
    expect((await search(t, cookie, 'grace')).totalHits).toBe(1);
    expect((await search(t, cookie, 'shipped')).totalHits).toBe(2);
    expect((await search(t, cookie, 'emile')).totalHits).toBe(1);

    // A full refresh that overwrites: only the new generation answers.
    await selectDatasets(t, cookie, integration.id, {
      orders: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    orders = [{ id: 4, customer: 'Alan Turing', status: 'returned' }];
    expect((await syncNow(t, cookie, integration.id)).status).toBe('Completed');
    await indexed(t);
    expect((await search(t, cookie, 'turing')).totalHits).toBe(1);
    expect((await search(t, cookie, 'emile')).totalHits).toBe(0);
    expect((await search(t, cookie, 'shipped')).totalHits).toBe(0);
    expect((await indexOf(t, cookie, accountId)).documents).toBeGreaterThan(0);

    // Deleting the integration: its rows are no longer found, and its entries leave the index.
    ok(await api<Integration>(t, cookie, 'DELETE', `/api/integrations/${integration.id}`), 204);
    expect((await search(t, cookie, 'turing')).totalHits).toBe(0);
    await indexed(t);
    await expect.poll(async () => (await indexOf(t, cookie, accountId)).documents).toBe(0);
    await t.close();
  });
});

describe('Exclusions and rebuild (global admins)', () => {
  it('keeps an excluded column or table out of answers and out of the index; a rebuild indexes again', async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    const team = await makeTeam(t);
    // The app's first user is its global admin.
    const admin = team.owner.cookie;
    const accountId = team.accountId;
    const table = await tableFromCsv(t, admin, 'name,secret\nZoë,hunter2 password\nBob,open sesame', 'People');
    await indexed(t);
    expect((await search(t, admin, 'hunter')).totalHits).toBe(1);
    const before = (await indexOf(t, admin, accountId)).documents;

    const exclusion = { accountId, tableType: 'StaticTable', tableId: table.id, columnKey: keyOf(table, 'secret') };
    const listed = ok(
      await call(t.server, 'POST', '/api/admin/search-index/exclusions', { cookie: admin, body: exclusion }),
    );
    expect(listed).toMatchObject([{ tableName: 'People', columnName: 'secret' }]);
    expect((await search(t, admin, 'hunter')).totalHits).toBe(0);
    expect((await search(t, admin, 'zoe')).totalHits).toBe(1);
    await indexed(t);
    expect((await indexOf(t, admin, accountId)).documents).toBe(before - 2);

    // The whole table.
    ok(
      await call(t.server, 'POST', '/api/admin/search-index/exclusions', {
        cookie: admin,
        body: { ...exclusion, columnKey: null },
      }),
    );
    expect((await search(t, admin, 'zoe')).totalHits).toBe(0);

    // Lifted again, then rebuilt: everything answers.
    ok(
      await call(t.server, 'DELETE', '/api/admin/search-index/exclusions', {
        cookie: admin,
        body: { ...exclusion, columnKey: null },
      }),
    );
    ok(await call(t.server, 'DELETE', '/api/admin/search-index/exclusions', { cookie: admin, body: exclusion }));
    const rebuilt = ok(
      await call<SearchIndexAccount>(t.server, 'POST', `/api/admin/search-index/${accountId}/rebuild`, {
        cookie: admin,
      }),
    );
    expect(rebuilt.accountId).toBe(accountId);
    await indexed(t);
    expect((await search(t, admin, 'hunter')).totalHits).toBe(1);
    expect((await indexOf(t, admin, accountId)).documents).toBe(before);

    // Not for anyone but a global admin, not even the account's own admin.
    const zoe = team.admin.cookie;
    expect((await call(t.server, 'GET', '/api/admin/search-index', { cookie: zoe })).status).toBe(403);
    expect(
      (await call(t.server, 'POST', '/api/admin/search-index/exclusions', { cookie: zoe, body: exclusion })).status,
    ).toBe(403);
  });
});

describe('Data that came before the index', () => {
  it('is indexed at start without a Rebuild (an upgrade, or an index file removed)', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    await tableFromCsv(t, cookie, 'name,city\nZoë,Zürich\nAna,Lisboa', 'Customers');
    await indexed(t);
    expect((await search(t, cookie, 'zurich')).totalHits).toBe(1);

    // As before search existed: no index file and nothing queued; then the server starts again.
    await t.server.close();
    const accountsDir = path.join(t.dataDir, 'accounts');
    for (const account of fs.readdirSync(accountsDir))
      fs.rmSync(path.join(accountsDir, account, 'search.sqlite'), { force: true });
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: t.dataDir });
    const again = await buildApp(config, { logger: false, clock: t.clock.now });
    try {
      const restarted = { ...t, ...again };
      await indexed(restarted);
      expect((await search(restarted, cookie, 'zurich')).totalHits).toBe(1);
    } finally {
      await again.server.close();
    }
  });
});

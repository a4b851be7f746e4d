/**
 * Every REST route that names a resource, called by the owner of another account with account A's
 * real ids: none answers 2xx or 5xx, none shows A's data, and A's resources are exactly as before.
 * The routes are read from the app itself, so a route added later is covered without a new test.
 */
import { describe, expect, it } from 'vitest';
import type { Model } from '../../src/shared/models';
import { call, type TestApp } from './helpers';
import { api, datasetRows, sampleIntegration, selectDatasets, syncNow, type Integration } from './integrations/helpers';
import { appWithTwoTeams, createTable, getTable, ok, type StaticTable } from './static-tables/helpers';

const SECRET = 'a-secret-7f3kq';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `/api/...` paths with their methods, rebuilt from Fastify's route tree. */
function routesOf(t: TestApp): { path: string; methods: Method[] }[] {
  const lines = t.server.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const routes: { path: string; methods: Method[] }[] = [];
  for (const line of lines) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line.replace(/\u00a0/g, ' '));
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('');
    const methods = (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter((m): m is Method => ['GET', 'POST', 'PUT', 'DELETE'].includes(m));
    if (path.startsWith('/api/') && path.includes(':') && methods.length > 0) routes.push({ path, methods });
  }
  // Registered in a scope of its own (the download form's body parser), so not in the root's tree.
  routes.push({ path: '/api/tables/:type/:id/download', methods: ['POST'] });
  return routes;
}

interface OwnResources {
  table: StaticTable;
  model: Model;
  integration: Integration;
  datasetId: string;
  runId: string;
}

async function resourcesOfA(t: TestApp, cookie: string): Promise<OwnResources> {
  const table = await createTable(t, cookie, {
    name: 'A private table',
    columns: [{ displayName: 'Secret' }, { displayName: 'Amount' }],
    rows: [[SECRET, '1']],
  });
  const created = ok(await api<Model>(t, cookie, 'POST', '/api/models', { name: 'A private model' }), 201);
  for (const column of table.columns) {
    ok(
      await api<Model>(t, cookie, 'POST', `/api/models/${created.id}/columns`, {
        displayName: column.displayName,
        sourceColumn: { sourceId: table.id, sourceType: 'StaticTable', columnKey: column.columnKey },
      }),
      201,
    );
  }
  const model = ok(await api<Model>(t, cookie, 'POST', `/api/models/${created.id}/publish`));
  const integration = await sampleIntegration(t, cookie, 'Private shop');
  await selectDatasets(t, cookie, integration.id, { products: {} });
  const run = await syncNow(t, cookie, integration.id);
  const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
  const datasetId = detail.datasets.find((d) => d.name === 'products')?.id ?? '';
  return { table, model, integration: detail, datasetId, runId: run.id };
}

/** Each way to fill a route's parameters with A's ids (one resource kind at a time). */
function fillings(own: OwnResources, accountId: string): Record<string, string>[] {
  const common = {
    versionId: own.model.versionId,
    columnKey: own.model.columns[0]?.columnKey ?? 'x',
    pivotKey: 'p1',
    jobId: own.runId,
    accountId,
  };
  return [
    { ...common, type: 'StaticTable', id: own.table.id },
    { ...common, type: 'ModelVersion', id: own.model.versionId },
    { ...common, type: 'IntegrationDataset', id: own.datasetId },
    { ...common, type: 'StaticTable', id: own.model.id },
    { ...common, type: 'StaticTable', id: own.integration.id },
  ];
}

describe("another account's ids", { timeout: 120_000 }, () => {
  it('reach nothing of account A on any REST route, and change nothing there', async () => {
    const { t, a, b } = await appWithTwoTeams();
    const own = await resourcesOfA(t, a.owner.cookie);
    const before = {
      table: await getTable(t, a.owner.cookie, own.table.id),
      model: ok(await api<Model>(t, a.owner.cookie, 'GET', `/api/models/${own.model.id}`)),
      integration: ok(await api<Integration>(t, a.owner.cookie, 'GET', `/api/integrations/${own.integration.id}`)),
      rows: await datasetRows(t, a.owner.cookie, own.datasetId),
    };

    const routes = routesOf(t).filter((r) => !r.path.includes('/webhook/:token'));
    expect(routes.length).toBeGreaterThan(30);
    const seen: string[] = [];
    for (const route of routes) {
      for (const params of fillings(own, a.accountId)) {
        const url = route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? 'x');
        for (const method of route.methods) {
          for (const cookie of [b.owner.cookie, b.admin.cookie]) {
            const res = await call(t.server, method, url, {
              cookie,
              ...(method === 'GET' ? {} : { body: {} }),
            });
            const where = `${method} ${url}: ${res.raw.body.slice(0, 300)}`;
            expect(res.status, where).toBeGreaterThanOrEqual(400);
            expect(res.status, where).toBeLessThan(500);
            expect(res.raw.body, where).not.toContain(SECRET);
            expect(res.raw.body, where).not.toMatch(/A private|Private shop/);
            seen.push(`${method} ${route.path}`);
          }
        }
      }
    }
    expect(new Set(seen).size).toBeGreaterThan(50);

    // A's resources are exactly as they were, and still work for A.
    expect(await getTable(t, a.owner.cookie, own.table.id)).toEqual(before.table);
    expect(ok(await api<Model>(t, a.owner.cookie, 'GET', `/api/models/${own.model.id}`))).toEqual(before.model);
    const integration = ok(await api<Integration>(t, a.owner.cookie, 'GET', `/api/integrations/${own.integration.id}`));
    expect({ ...integration, recentRuns: [] }).toEqual({ ...before.integration, recentRuns: [] });
    expect(await datasetRows(t, a.owner.cookie, own.datasetId)).toEqual(before.rows);
  });
});

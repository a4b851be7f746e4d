/**
 * Every REST route, called by the owner with their own real ids and hostile bodies and query
 * strings: nothing answers 500. The routes are read from the app itself (as in cross-account.test.ts),
 * so a route added later is covered too.
 */
import { describe, expect, it } from 'vitest';
import type { Model } from '../../src/shared/models';
import { appRouter } from '../../src/server/trpc/app-router';
import { call, makeApp, signIn, trpcMutation, trpcQuery, type TestApp } from './helpers';
import { api, sampleIntegration, selectDatasets, syncNow } from './integrations/helpers';
import { createTable, ok } from './static-tables/helpers';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function routesOf(t: TestApp): { path: string; methods: Method[] }[] {
  const stack: string[] = [];
  const routes: { path: string; methods: Method[] }[] = [];
  for (const line of t.server.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line.replace(/\u00a0/g, ' '));
    if (!match) continue;
    stack.length = (match[1] ?? '').length / 4;
    stack.push(match[2] ?? '');
    const methods = (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter((m): m is Method => ['GET', 'POST', 'PUT', 'DELETE'].includes(m));
    const path = stack.join('');
    if (path.startsWith('/api/') && methods.length > 0) routes.push({ path, methods });
  }
  return routes;
}

const LONG = 'x'.repeat(100_000);

/** Bodies of every wrong shape: wrong JSON types, wrong field types, hostile strings, near-limit sizes. */
const BODIES: unknown[] = [
  null,
  [],
  'text',
  12,
  true,
  { id: { $gt: '' } },
  {
    name: ['a'],
    columns: 'all',
    rows: {},
    changes: 7,
    filterGroups: 'x',
    sorting: [{ columnKey: null }],
    page: -1,
    pageSize: 1e12,
  },
  { name: LONG, displayName: LONG, email: LONG, function: LONG, configuration: { base_url: LONG } },
  { columns: [{ displayName: '\u0000\u202e' }], rows: [[{ nested: true }]], changes: [{ kind: 'nope' }] },
  { datasets: { x: { isSelected: 'yes' } }, pattern: '* * * * * * *', syncFrequencyType: 'Hourly' },
  { joins: [{ leftTable: null }], pivots: [{ rows: 'x' }], filterGroups: [{ filters: [{ operator: 'Drop' }] }] },
  { page: '1; DROP TABLE x', pageSize: 'NaN', sorting: 'up', format: '../../etc/passwd' },
];

const QUERIES = [
  '',
  '?page=-5&pageSize=abc&PageSize=0&Page=NaN',
  '?format=exe&filterGroups=%7Bbad&sorting=%5B1',
  `?query=${LONG.slice(0, 5000)}`,
];

// Thousands of calls: seconds on a quiet machine, more while other suites run beside it.
describe('hostile input on every REST route', { timeout: 180_000 }, () => {
  it('never answers 500', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const table = await createTable(t, cookie, { name: 'T', columns: [{ displayName: 'A' }], rows: [['1']] });
    const created = ok(await api<Model>(t, cookie, 'POST', '/api/models', { name: 'M' }), 201);
    ok(
      await api(t, cookie, 'POST', `/api/models/${created.id}/columns`, {
        displayName: 'A',
        sourceColumn: { sourceId: table.id, sourceType: 'StaticTable', columnKey: table.columns[0]?.columnKey },
      }),
      201,
    );
    const model = ok(await api<Model>(t, cookie, 'POST', `/api/models/${created.id}/publish`));
    const integration = await sampleIntegration(t, cookie);
    await selectDatasets(t, cookie, integration.id, { products: {} });
    const run = await syncNow(t, cookie, integration.id);
    const params: Record<string, string[]> = {
      id: [table.id, model.id, integration.id, 'no-such-id', '..%2F..%2Fetc'],
      type: ['StaticTable', 'ModelVersion', 'IntegrationDataset', 'Nope'],
      versionId: [model.versionId],
      columnKey: [model.columns[0]?.columnKey ?? 'a', '%00'],
      pivotKey: ['p1'],
      jobId: [run.id],
      accountId: ['x'],
      token: ['t'],
    };

    const calls: { method: Method; url: string }[] = [];
    for (const route of routesOf(t)) {
      const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
      // Each parameter's values in turn, the others at their first value.
      const urls = new Set<string>([route.path.replace(/:(\w+)/g, (_, n: string) => params[n]?.[0] ?? 'x')]);
      for (const name of names) {
        for (const value of params[name] ?? []) {
          urls.add(route.path.replace(/:(\w+)/g, (_, n: string) => (n === name ? value : (params[n]?.[0] ?? 'x'))));
        }
      }
      for (const url of urls) for (const method of route.methods) calls.push({ method, url });
    }
    // Deletes last, so every other call still finds the resources.
    calls.sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));

    const failures: string[] = [];
    for (const { method, url } of calls) {
      for (const query of QUERIES) {
        for (const body of method === 'GET' ? [undefined] : BODIES) {
          const res = await call(t.server, method, `${url}${query}`, {
            cookie,
            ...(body === undefined
              ? {}
              : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
          });
          if (res.status >= 500) {
            failures.push(`${res.status} ${method} ${url}${query.slice(0, 60)} ${JSON.stringify(body)?.slice(0, 80)}`);
          }
        }
      }
    }
    expect(calls.length).toBeGreaterThan(60);
    expect(failures).toEqual([]);
  });

  it('never answers 500 on any tRPC procedure either', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const table = await createTable(t, cookie, { name: 'T', columns: [{ displayName: 'A' }], rows: [['1']] });
    // At run time the router keeps every procedure under its dotted path (its type shows them nested).
    const flat = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
    const procedures = Object.entries(flat);
    expect(procedures.length).toBeGreaterThan(40);
    const inputs: unknown[] = [
      undefined,
      ...BODIES,
      { id: table.id, tableId: table.id, modelId: table.id, integrationId: table.id, name: LONG },
      { id: table.id, changes: [{ kind: 'cells', edits: [{ rowId: 'x', columnKey: 1, value: {} }] }] },
    ];
    const failures: string[] = [];
    // Mutations that end the session or delete the table run last.
    procedures.sort(([a], [b]) => Number(/logout|delete|remove/i.test(a)) - Number(/logout|delete|remove/i.test(b)));
    for (const [path, procedure] of procedures) {
      for (const input of inputs) {
        const res =
          procedure._def.type === 'query'
            ? await trpcQuery(t, path, input, cookie)
            : await trpcMutation(t, path, input, cookie);
        if (res.status >= 500) failures.push(`${res.status} ${path} ${JSON.stringify(input)?.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

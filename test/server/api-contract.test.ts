/**
 * One typed contract: the OpenAPI document at /api/openapi.json describes every REST route the app
 * registered (read from Fastify itself), with the very schemas each route parses, and real answers
 * of a working session match the answers it documents. /api/docs renders it with this site's own
 * script, under the Content Security Policy.
 */
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import type { AnyEndpoint } from '../../src/server/http/endpoint';
import { jsonSchemaOf, operationId, type JsonSchema } from '../../src/server/http/openapi';
import type { PivotPage } from '../../src/shared/pivots';
import { call, makeApp, signIn, type TestApp } from './helpers';
import { api, joinedModel, makeShop, modelKey, type Model } from './models/helpers';
import { selectDatasets, sampleIntegration, syncNow, type Integration } from './integrations/helpers';
import { ok } from './static-tables/helpers';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

interface Operation {
  operationId: string;
  parameters?: { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

interface Document {
  openapi: string;
  paths: Record<string, Partial<Record<Lowercase<Method>, Operation>>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** `/api/...` routes with their methods, rebuilt from Fastify's own route tree. */
function registeredRoutes(t: TestApp): { path: string; method: Method }[] {
  const routes: { path: string; method: Method }[] = [];
  const stack: string[] = [];
  for (const line of t.server.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line.replace(/\u00a0/g, ' '));
    if (!match) continue;
    stack.length = (match[1] ?? '').length / 4;
    stack.push(match[2] ?? '');
    const path = stack.join('');
    const methods = (match[3] ?? '').split(',').map((m) => m.trim());
    for (const method of METHODS)
      if (path.startsWith('/api') && methods.includes(method)) routes.push({ path, method });
  }
  return routes;
}

/** A request that reaches the route (any answer will do), to read what it was registered with. */
function concreteUrl(path: string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => (name === 'type' ? 'StaticTable' : `x${name}`));
}

/** Every served request's route declaration, as Fastify hands it to the request. */
function watchRoutes(t: TestApp) {
  const served: {
    method: string;
    url: string;
    endpoint: AnyEndpoint | undefined;
    status: number;
    type: string;
    body: string;
  }[] = [];
  t.server.addHook('onSend', async (req, reply, payload) => {
    served.push({
      method: req.method,
      url: req.url,
      endpoint: req.routeOptions.config.endpoint,
      status: reply.statusCode,
      type: String(reply.getHeader('content-type') ?? ''),
      body: typeof payload === 'string' ? payload : '',
    });
    return payload;
  });
  return served;
}

async function documentOf(t: TestApp): Promise<Document> {
  const res = await call<Document>(t.server, 'GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  return res.body;
}

/** The schema with its `#/components/schemas/...` references written out (the document has no cycles). */
/**
 * A schema made standalone: the components it refers to (and those they refer to) come along as
 * its own $defs, so a recursive one (a JSON value holding JSON values) stays finite.
 */
function inline(schema: unknown, components: Record<string, JsonSchema>): unknown {
  const PREFIX = '#/components/schemas/';
  const wanted = new Set<string>();
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => {
        if (key === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) {
          const name = v.slice(PREFIX.length);
          wanted.add(name);
          return [key, `#/$defs/${name}`];
        }
        return [key, rewrite(v)];
      }),
    );
  };
  const root = rewrite(schema) as Record<string, unknown>;
  const defs: Record<string, unknown> = {};
  for (let added = true; added;) {
    added = false;
    for (const name of [...wanted]) {
      if (name in defs) continue;
      defs[name] = rewrite(components[name]);
      added = true;
    }
  }
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: { ...(root.$defs as object), ...defs } };
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

describe('the OpenAPI document', () => {
  it('describes every REST route the app registered, with the schemas its handler parses', async () => {
    const t = await makeApp();
    const served = watchRoutes(t);
    const doc = await documentOf(t);
    expect(doc.openapi).toBe('3.1.0');
    const routes = registeredRoutes(t);
    expect(routes.length).toBeGreaterThan(60);

    const documented = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(documented, `${route.method} ${route.path} is missing from the document`).toContain(
        `${route.method} ${path}`,
      );
      documented.delete(`${route.method} ${path}`);

      // What the route's handler was registered with: the declaration whose schemas it parses.
      served.length = 0;
      await t.server.inject({ method: route.method, url: concreteUrl(route.path) });
      const declared = served.find((s) => s.endpoint)?.endpoint;
      expect(declared, `${route.method} ${route.path} has no declared contract`).toBeDefined();
      if (!declared) continue;
      expect(declared.path).toBe(path);
      expect(declared.method).toBe(route.method);

      const op = doc.paths[path]?.[route.method.toLowerCase() as Lowercase<Method>] as Operation;
      const id = operationId(declared);
      expect(op.operationId).toBe(id);
      const components: Record<string, JsonSchema> = {};
      const parameters = (place: 'path' | 'query', schema: AnyEndpoint['params']) => {
        const json = schema ? jsonSchemaOf(schema, 'request', `${id}_${place}`, components) : { properties: {} };
        return Object.keys((json.properties ?? {}) as object).sort();
      };
      const names = (place: 'path' | 'query') =>
        (op.parameters ?? [])
          .filter((p) => p.in === place)
          .map((p) => p.name)
          .sort();
      expect(names('path'), `${route.method} ${path} path`).toEqual(parameters('path', declared.params));
      expect(names('query'), `${route.method} ${path} query`).toEqual(parameters('query', declared.query));
      for (const p of op.parameters ?? []) {
        const source = p.in === 'path' ? declared.params : declared.query;
        const json = jsonSchemaOf(source!, 'request', `${id}_${p.in}`, components);
        const { description: _d, ...property } = (json.properties as Record<string, JsonSchema>)[p.name] ?? {};
        expect(p.schema, `${route.method} ${path} ${p.in} ${p.name}`).toEqual(property);
      }
      if (declared.body) {
        expect(op.requestBody?.content['application/json']?.schema, `${route.method} ${path} body`).toEqual(
          jsonSchemaOf(declared.body, 'request', id, components),
        );
      } else if (declared.multipart) {
        expect(op.requestBody?.content['multipart/form-data']?.schema).toEqual(
          jsonSchemaOf(declared.multipart, 'request', id, components),
        );
      } else {
        expect(op.requestBody, `${route.method} ${path} takes no body`).toBeUndefined();
      }
      for (const [status, answer] of Object.entries(declared.answers)) {
        const documentedAnswer = op.responses[status];
        expect(documentedAnswer, `${route.method} ${path} ${status}`).toBeDefined();
        if (answer.json) {
          expect(documentedAnswer?.content?.['application/json']?.schema).toEqual(
            jsonSchemaOf(answer.json, 'answer', `${id}_${status}`, components),
          );
        }
      }
      // Every error answer is `{ message }` (101 is a hub's WebSocket upgrade, not an error).
      for (const [status, answer] of Object.entries(op.responses)) {
        if (status.startsWith('2') || status === '101') continue;
        expect(answer.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    expect([...documented], 'paths in the document that no route serves').toEqual([]);
    expect(doc.components.schemas.Error).toMatchObject({ properties: { message: { type: 'string' } } });
  });

  it('holds only valid JSON Schema (2020-12)', async () => {
    const t = await makeApp();
    const doc = await documentOf(t);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item) as [string, Operation][]) {
        const schemas = [
          ...(op.parameters ?? []).map((p) => p.schema),
          ...Object.values(op.requestBody?.content ?? {}).map((c) => c.schema),
          ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).map((c) => c.schema)),
        ];
        for (const schema of schemas) {
          expect(
            () => ajv.compile(inline(schema, doc.components.schemas) as object),
            `${method} ${path}`,
          ).not.toThrow();
        }
      }
    }
  });

  it('matches the real answers of a working session, successes and errors alike', async () => {
    const t = await makeApp();
    const served = watchRoutes(t);
    const doc = await documentOf(t);
    const cookie = await signIn(t, 'owner@example.com');

    // Accounts and users.
    const me = ok(await api<{ currentAccountId: string }>(t, cookie, 'GET', '/api/me'));
    ok(await api(t, cookie, 'GET', `/api/accounts/${me.currentAccountId}`));
    ok(await api(t, cookie, 'PUT', `/api/accounts/${me.currentAccountId}`, { name: 'Team' }));
    ok(await api(t, cookie, 'PUT', '/api/users', { name: 'Owner' }));
    ok(await api(t, cookie, 'POST', '/api/accounts/invite', { email: 'new@example.com', roles: ['admin'] }), 204);
    ok(await api(t, cookie, 'POST', '/api/bug-reports', { message: 'It broke' }), 201);

    // Static tables and the tables API.
    const shop = await makeShop(t, cookie);
    const orders = shop.orders.id;
    ok(await api(t, cookie, 'GET', '/api/static-tables?page=1&pageSize=50'));
    ok(await api(t, cookie, 'GET', `/api/static-tables/${orders}`));
    ok(await api(t, cookie, 'POST', `/api/static-tables/${orders}/query`, { filters: [] }));
    ok(
      await api(t, cookie, 'POST', `/api/static-tables/${orders}/changes`, {
        changes: [{ kind: 'addRows', count: 1 }],
      }),
    );
    ok(await api(t, cookie, 'GET', '/api/tables?types=StaticTable'));
    ok(await api(t, cookie, 'GET', `/api/tables/StaticTable/${orders}`));
    const page = ok(
      await api<{ count: number; totalPages: number }>(
        t,
        cookie,
        'POST',
        `/api/tables/StaticTable/${orders}/data/infinite-scroll`,
        {
          pageSize: 2,
        },
      ),
    );
    expect(page).toMatchObject({ count: 5, totalPages: 3 });
    ok(await api(t, cookie, 'POST', `/api/tables/StaticTable/${orders}/data/count`, {}));
    ok(await api(t, cookie, 'GET', `/api/tables/StaticTable/${orders}/download?format=csv`));

    // Models and a pivot.
    const model = await joinedModel(t, cookie, shop);
    ok(
      await api(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, {
        pivots: [
          {
            key: 'pv01',
            name: 'Pivot table 1',
            rows: [{ column: modelKey(model, 'Customer') }],
            columns: [],
            values: [{ column: modelKey(model, 'Amount'), function: 'Sum', showAs: 'PercentOfGrandTotal' }],
            filters: [],
            showRowTotals: true,
            showColumnTotals: true,
          },
        ],
      }),
    );
    const published = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/publish`));
    ok(await api(t, cookie, 'GET', '/api/models'));
    ok(await api(t, cookie, 'GET', `/api/models/${model.id}?draft=true`));
    ok(await api(t, cookie, 'GET', `/api/models/${model.id}/versions`));
    ok(await api(t, cookie, 'GET', `/api/models/versions/${published.versionId}`));
    ok(await api(t, cookie, 'GET', `/api/models/${model.id}/sources`));
    ok(await api(t, cookie, 'GET', '/api/models/functions'));
    ok(await api(t, cookie, 'POST', `/api/models/${published.versionId}/validate-function`, { function: '[x] +' }));
    ok(await api(t, cookie, 'POST', `/api/tables/ModelVersion/${published.versionId}/data/infinite-scroll`, {}));
    ok(await api(t, cookie, 'POST', `/api/tables/ModelVersion/${published.versionId}/data/count`, {}));
    const pivot = ok(
      await api<PivotPage>(
        t,
        cookie,
        'POST',
        `/api/tables/ModelVersion/${published.versionId}/resources/pv01/Pivot/data/infinite-scroll`,
        {},
      ),
    );
    expect(pivot.rows.length).toBeGreaterThan(0);
    ok(await api(t, cookie, 'GET', `/api/models/${model.id}/export/pivot?pivotKey=pv01&format=csv`));

    // Integrations.
    const integration = await sampleIntegration(t, cookie);
    const datasets = await selectDatasets(t, cookie, integration.id, { customers: {} });
    expect(datasets.datasets.length).toBeGreaterThan(0);
    await syncNow(t, cookie, integration.id);
    ok(await api(t, cookie, 'GET', '/api/integrations'));
    ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    ok(await api(t, cookie, 'GET', `/api/integrations/${integration.id}/job_status`));
    ok(await api(t, cookie, 'GET', `/api/integrations/${integration.id}/jobs?Status=Completed,Failed`));
    ok(await api(t, cookie, 'GET', '/api/integrations/stats/records-per-day?days=7'));
    ok(await api(t, cookie, 'PUT', `/api/integrations/${integration.id}/schedule`, { status: 'Inactive' }));

    // Errors: bad input, no session, nothing there, another site.
    expect(
      (await api(t, cookie, 'POST', `/api/tables/StaticTable/${orders}/data/infinite-scroll`, { page: 0 })).status,
    ).toBe(400);
    expect((await call(t.server, 'GET', '/api/models')).status).toBe(401);
    expect((await api(t, cookie, 'GET', '/api/models/nothing-here')).status).toBe(404);
    expect((await api(t, cookie, 'GET', '/api/integrations/x/jobs?PageSize=5000')).status).toBe(400);

    const answers = served.filter((s) => s.url.startsWith('/api/') && s.endpoint);
    expect(answers.length).toBeGreaterThan(50);
    const statuses = new Set<string>();
    for (const answer of answers) {
      const where = `${answer.method} ${answer.url} → ${answer.status}`;
      const op = doc.paths[answer.endpoint!.path]?.[answer.method.toLowerCase() as Lowercase<Method>];
      expect(op, where).toBeDefined();
      const documented = op!.responses[String(answer.status)];
      if (answer.status < 400) expect(documented, `${where} is not a documented answer`).toBeDefined();
      const response = documented ?? op!.responses.default;
      const json = response?.content?.['application/json']?.schema;
      if (answer.status === 204) {
        expect(answer.body, where).toBe('');
      } else if (json) {
        expect(answer.type, where).toMatch(/^application\/json/);
        const validate = ajv.compile(inline(json, doc.components.schemas) as object);
        const valid = validate(JSON.parse(answer.body));
        expect(valid, `${where}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
      } else {
        const types = Object.keys(response?.content ?? {});
        expect(
          types.some((type) => answer.type.startsWith(type)),
          `${where}: ${answer.type} not in ${types}`,
        ).toBe(true);
      }
      statuses.add(`${answer.status}`);
    }
    expect([...statuses]).toEqual(expect.arrayContaining(['200', '201', '204', '400', '401', '404']));
  });
});

describe('GET /api/docs', () => {
  it("is a page of this site whose only script is the site's own, under the CSP, and needs no internet", async () => {
    const t = await makeApp();
    const page = await call<string>(t.server, 'GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    // No inline script (the CSP would block it) and nothing from another host.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((s) => s[1])).toEqual([' src="/api/docs/viewer.js" defer']);
    expect(scripts.every((s) => s[2]?.trim() === '')).toBe(true);
    expect(page.body).not.toMatch(/https?:\/\//);
    const script = await call<string>(t.server, 'GET', '/api/docs/viewer.js');
    expect(script.status).toBe(200);
    expect(String(script.headers['content-type'])).toMatch(/^text\/javascript/);
    expect(script.body).toContain("fetch('/api/openapi.json'");
    expect(script.body).not.toMatch(/https?:\/\//);
    expect((await call(t.server, 'GET', '/api/docs/viewer.css')).status).toBe(200);
  });
});

import { describe, expect, it } from 'vitest';
import type { AdminDefinition, SpecificationCheck } from '../../src/shared/admin';
import { call, expectError, makeApp, makeTeam, signIn, trpcMutation, type TestApp, type TrpcData } from './helpers';
import { sampleIntegration } from './integrations/helpers';
import { ok } from './static-tables/helpers';

const check = async (t: TestApp, cookie: string, specification: string) =>
  ok(
    await call<SpecificationCheck>(t.server, 'POST', '/api/admin/integration_definitions/validate', {
      cookie,
      body: { specification },
    }),
  );

const list = async (t: TestApp, cookie: string) =>
  ok(await call<AdminDefinition[]>(t.server, 'GET', '/api/admin/integration_definitions', { cookie }));

describe('checking a definition specification', () => {
  it('places JSON syntax errors by line and column', async () => {
    const t = await makeApp();
    const { owner } = await makeTeam(t);
    const missingComma = '{\n  "settings": {\n    "properties": {}\n    "required": []\n  }\n}';
    expect(await check(t, owner.cookie, missingComma)).toEqual({
      valid: false,
      problems: [
        {
          message: "Invalid JSON at line 4, column 5: Expected ',' or '}' after a property value, found '\"'",
          path: null,
          line: 4,
          column: 5,
        },
      ],
    });
    const trailing = await check(t, owner.cookie, '{"settings": {"properties": {},}}');
    expect(trailing.problems[0]).toMatchObject({
      line: 1,
      column: 32,
      message: expect.stringContaining('Trailing comma'),
    });
    const unterminated = await check(t, owner.cookie, '{"settings": "abc');
    expect(unterminated.problems[0]).toMatchObject({ line: 1, column: 14 });
    expect((await check(t, owner.cookie, '')).problems[0]?.message).toMatch(/^Invalid JSON at line 1, column 1/);
  });

  it('checks the settings against the JSON Schema meta-schema, placing each problem', async () => {
    const t = await makeApp();
    const { owner } = await makeTeam(t);
    const spec = JSON.stringify(
      {
        settings: {
          type: 'object',
          properties: { host: { type: 'strin' }, port: { type: 'integer', minimum: 'one' } },
          required: ['host'],
        },
      },
      null,
      2,
    );
    const result = await check(t, owner.cookie, spec);
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      {
        message:
          'settings.properties.host.type: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string")',
        path: 'settings.properties.host.type',
        line: 6,
        column: 17,
      },
      {
        message: 'settings.properties.port.minimum: must be number',
        path: 'settings.properties.port.minimum',
        line: 10,
        column: 20,
      },
    ]);
  });

  it('refuses what the forms cannot read: no settings.properties, required names that are not properties, bad patterns', async () => {
    const t = await makeApp();
    const { owner } = await makeTeam(t);
    expect((await check(t, owner.cookie, '[]')).problems[0]?.message).toBe(
      'The specification must be a JSON object with settings.',
    );
    expect((await check(t, owner.cookie, '{"settings": {}}')).problems[0]?.message).toBe(
      'settings.properties: must be an object of fields',
    );
    expect(
      (await check(t, owner.cookie, '{"settings": {"properties": {"a": {}}, "required": ["a", "b"]}}')).problems,
    ).toEqual([
      {
        message: "settings.required.1: names 'b', which is not a property",
        path: 'settings.required.1',
        line: 1,
        column: 58,
      },
    ]);
    const pattern = await check(
      t,
      owner.cookie,
      '{"settings": {"properties": {"a": {"type": "string", "pattern": "[a-"}}}}',
    );
    expect(pattern.problems[0]?.message).toMatch(/^settings: Invalid regular expression/);
    // A valid one, with the keywords Airbyte specifications add.
    const valid = JSON.stringify({
      settings: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { api_key: { type: 'string', airbyte_secret: true, order: 0 } },
        required: ['api_key'],
      },
    });
    expect(await check(t, owner.cookie, valid)).toEqual({ valid: true, problems: [] });
  });

  it('is the check every write makes: POST /api/integration_definitions refuses the same specification', async () => {
    const t = await makeApp();
    const { owner } = await makeTeam(t);
    const spec = JSON.stringify({ settings: { properties: { host: { type: 'strin' } } } });
    const refused = await call(t.server, 'POST', '/api/integration_definitions', {
      cookie: owner.cookie,
      body: { name: 'Broken', specification: spec },
    });
    expect(expectError(refused, 400)).toMatch(/^specification: settings\.properties\.host\.type: must be equal to/);
    const admin = await call(t.server, 'POST', '/api/admin/integration_definitions', {
      cookie: owner.cookie,
      body: { name: 'Broken', specification: spec },
    });
    expect(expectError(admin, 400)).toMatch(/^specification: settings\.properties\.host\.type/);
  });
});

describe('admin integration definitions', () => {
  it('lists every definition with its use, and adds a custom one', async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    const { owner } = await makeTeam(t);
    const before = await list(t, owner.cookie);
    expect(before.map((d) => d.name)).toEqual(expect.arrayContaining(['Sample data', 'REST API', 'Webhook']));
    expect(before.find((d) => d.name === 'Sample data')).toMatchObject({
      type: 'Sample',
      isCustom: false,
      isPublic: true,
      usedBy: 0,
      version: 1,
      accountName: null,
    });

    const specification = JSON.stringify({
      settings: { type: 'object', properties: { url: { type: 'string', title: 'URL' } }, required: ['url'] },
    });
    const created = await trpcMutation<TrpcData<{ id: string }>>(
      t,
      'admin.createDefinition',
      { name: 'Orders API', type: 'Api', specification },
      owner.cookie,
    );
    expect(created.status).toBe(200);
    const id = created.body.result.data.id;
    const added = (await list(t, owner.cookie)).find((d) => d.id === id);
    expect(added).toEqual({
      id,
      name: 'Orders API',
      type: 'Api',
      isCustom: true,
      isPublic: false,
      accountName: "Owner's account",
      version: 1,
      usedBy: 0,
      createdAt: t.clock.now().toISOString(),
    });

    // Integrations made from a definition count, in any account.
    await sampleIntegration(t, owner.cookie);
    const other = await signIn(t, 'other@example.com');
    await sampleIntegration(t, other, 'Theirs');
    expect((await list(t, owner.cookie)).find((d) => d.name === 'Sample data')?.usedBy).toBe(2);

    const rest = await call<{ id: string }>(t.server, 'POST', '/api/admin/integration_definitions', {
      cookie: owner.cookie,
      body: { name: 'Public source', type: 'Api', isPublic: true, specification },
    });
    expect(rest.status).toBe(201);
    expect((await list(t, owner.cookie)).find((d) => d.id === rest.body.id)).toMatchObject({
      isPublic: true,
      accountName: null,
    });
  });
});

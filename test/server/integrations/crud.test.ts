import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../../src/shared/integrations';
import { expectError, signIn } from '../helpers';
import { appWithTeam } from '../static-tables/helpers';
import {
  api,
  createIntegration,
  definitionNamed,
  ok,
  sampleIntegration,
  type Integration,
  type IntegrationDefinition,
} from './helpers';
import { ITEMS, customDefinition, items, registerTestSource } from './test-connector';

describe('integration definitions', () => {
  it('lists the built-in definitions; only global admins add custom ones, validated', async () => {
    const { t, team } = await appWithTeam();
    const list = ok(await api<IntegrationDefinition[]>(t, team.owner.cookie, 'GET', '/api/integration_definitions'));
    expect(list.map((d) => [d.name, d.type])).toEqual(
      expect.arrayContaining([
        ['REST API', 'Api'],
        ['PostgreSQL', 'Database'],
        ['SFTP', 'Sftp'],
        ['Webhook', 'Webhook'],
        ['Incoming e-mail', 'IncomingEmail'],
        ['Sample data', 'Sample'],
      ]),
    );
    // Airbyte sources are the operator's (AIRBYTE_SOURCES): none is built in.
    expect(list.map((d) => d.type)).not.toContain('Airbyte');
    const sample = list.find((d) => d.name === 'Sample data')!;
    expect(sample.isPublic).toBe(true);
    expect(sample.canComplete).toBe(true);
    expect(JSON.parse(sample.versions[0]!.specification)).toHaveProperty('settings.properties');
    const one = ok(
      await api<IntegrationDefinition>(t, team.owner.cookie, 'GET', `/api/integration_definitions/${sample.id}`),
    );
    expect(one.name).toBe('Sample data');
    expectError(await api(t, team.owner.cookie, 'GET', '/api/integration_definitions/nope'), 404);

    const spec = JSON.stringify({ settings: { properties: { url: { type: 'string' } }, required: ['url'] } });
    const refused = await api(t, team.owner.cookie, 'POST', '/api/integration_definitions', {
      name: 'X',
      specification: spec,
    });
    expectError(refused, 403);
    const custom = await customDefinition(t);
    expect(custom.isCustom).toBe(true);
    const bad = await api(t, team.owner.cookie, 'POST', '/api/integration_definitions', {
      name: 'X',
      specification: spec,
    });
    expectError(bad, 403);
    const root = await signIn(t, 'root@example.com');
    for (const specification of ['not json', '{"settings":{}}', '{"settings":{"properties":[]}}']) {
      const res = await api(t, root, 'POST', '/api/integration_definitions', { name: 'Broken', specification });
      expect(expectError(res, 400)).toMatch(/specification/);
    }
    const names = ok(
      await api<IntegrationDefinition[]>(t, team.owner.cookie, 'GET', '/api/integration_definitions'),
    ).map((d) => d.name);
    expect(names).toContain('Test source');
  });
});

describe('integrations: create, settings, delete', () => {
  it('cleans and guards the schema name', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await definitionNamed(t, cookie, 'Sample data');
    const create = (name: string, schemaName: string) =>
      createIntegration(t, cookie, { integrationDefinitionId: definition.id, name, schemaName, configuration: {} });
    expect(ok(await create('Shop', 'Shop Data-2026'), 201).schemaName).toBe('shop_data_2026');
    expect(expectError(await create('Again', 'shop data 2026'), 409)).toMatch(/schema name/);
    for (const reserved of [
      'main',
      'Static',
      'model',
      'information_schema',
      'pg_catalog',
      'temp',
      'memory',
      'system',
      'warehouse',
    ]) {
      expect(expectError(await create('R', reserved), 400)).toMatch(/reserved/);
    }
    expectError(await create('', 'x'), 400);
    expectError(await create('N', ''), 400);
    expectError(
      await createIntegration(t, cookie, { integrationDefinitionId: 'missing', name: 'N', schemaName: 'n' }),
      404,
    );
    await t.services.integrations.idle();
  });

  it('answers the connector message when the check fails, stores nothing; refuses definitions without a connector', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    const source = registerTestSource(t, 'airbyte', () => items());
    const res = await createIntegration(t, cookie, {
      integrationDefinitionId: definition.id,
      name: 'Bad',
      schemaName: 'bad',
      configuration: { host: 'bad', password: 'pw' },
    });
    expect(expectError(res, 400)).toBe('Could not reach host bad: connection refused.');
    expect(source.checked).toEqual([{ host: 'bad', password: 'pw' }]);
    expect(ok(await api<Integration[]>(t, cookie, 'GET', '/api/integrations'))).toEqual([]);

    const missing = await createIntegration(t, cookie, {
      integrationDefinitionId: definition.id,
      name: 'No password',
      schemaName: 'np',
      configuration: { host: 'db' },
    });
    expect(expectError(missing, 400)).toBe('Password: This field is required');

    // Replacing the REST API connector and removing the replacement leaves its definition without one.
    t.services.integrations.registry.register({ ...source.connector, key: 'rest-api' })();
    const rest = await definitionNamed(t, cookie, 'REST API');
    expect(rest.canComplete).toBe(false);
    const refused = await createIntegration(t, cookie, {
      integrationDefinitionId: rest.id,
      name: 'R',
      schemaName: 'r',
    });
    expect(expectError(refused, 400)).toMatch(/no connector is installed/);
  });

  it('encrypts secrets at rest, masks them in answers, keeps them when the mask is sent back', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    const source = registerTestSource(t, 'airbyte', () => items());
    const created = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Warehouse DB',
        schemaName: 'wdb',
        configuration: { host: 'db.local', password: 's3cret-pw', auth: { kind: 'token', token: 'tok-123' } },
      }),
      201,
    );
    expect(created.configuration).toEqual({
      host: 'db.local',
      password: SECRET_MASK,
      auth: { kind: 'token', token: SECRET_MASK },
    });
    const stored = await t.deps.db
      .selectFrom('integrations')
      .select('configuration')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.configuration).not.toContain('s3cret-pw');
    expect(stored.configuration).not.toContain('tok-123');
    expect(stored.configuration).toContain('enc:v1:');
    const listed = ok(await api<Integration[]>(t, cookie, 'GET', '/api/integrations'));
    expect(JSON.stringify(listed)).not.toContain('s3cret-pw');

    // Save with the mask: the stored password is kept (the check sees the real one); a new token replaces the old.
    const saved = ok(
      await api<Integration>(t, cookie, 'PUT', `/api/integrations/${created.id}`, {
        id: created.id,
        name: 'Renamed',
        configuration: { host: 'db2.local', password: SECRET_MASK, auth: { kind: 'token', token: 'tok-456' } },
      }),
    );
    expect(saved.name).toBe('Renamed');
    expect(saved.configuration.password).toBe(SECRET_MASK);
    expect(source.checked.at(-1)).toEqual({
      host: 'db2.local',
      password: 's3cret-pw',
      auth: { kind: 'token', token: 'tok-456' },
    });
    // A failing check on save changes nothing.
    const failed = await api(t, cookie, 'PUT', `/api/integrations/${created.id}`, {
      configuration: { host: 'bad', password: SECRET_MASK },
    });
    expect(expectError(failed, 400)).toMatch(/Could not reach/);
    const again = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    expect(again.configuration.host).toBe('db2.local');
    expect(again.schemaName).toBe('wdb');
  });

  it('discovery: Processing then loaded, or Error with the reason; refresh-dataset runs it again', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    registerTestSource(t, 'airbyte', () => items());
    const created = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Catalogue',
        schemaName: 'catalogue',
        configuration: { host: 'undiscoverable', password: 'x' },
      }),
      201,
    );
    expect(created.discovery.status).toBe('Processing');
    expect(created.discovery.message).toBe('Discovering available datasets');
    await t.services.integrations.idle();
    const failed = ok(
      await api<{ status: string; message: string }>(t, cookie, 'GET', `/api/integrations/${created.id}/datasets`),
    );
    expect(failed.status).toBe('Error');
    expect(failed.message).toBe('Failed to discover datasets: The catalog could not be read.');

    ok(
      await api(t, cookie, 'PUT', `/api/integrations/${created.id}`, {
        configuration: { host: 'ok', password: SECRET_MASK },
      }),
    );
    const refreshing = ok(
      await api<{ status: string }>(t, cookie, 'POST', `/api/integrations/${created.id}/refresh-dataset`, {
        id: created.id,
      }),
    );
    expect(refreshing.status).toBe('Processing');
    await t.services.integrations.idle();
    const loaded = ok(
      await api<{ status: string; datasets: { name: string; tableName: string }[] }>(
        t,
        cookie,
        'GET',
        `/api/integrations/${created.id}/datasets`,
      ),
    );
    expect(loaded.status).toBe('Loaded');
    expect(loaded.datasets.map((d) => [d.name, d.tableName])).toEqual([[ITEMS.name, 'items']]);
  });

  it('delete drops the warehouse schema; others get 404, read_only members 403', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    await api(t, cookie, 'PUT', `/api/integrations/${integration.id}/datasets`, {
      datasets: { products: { isSelected: true } },
    });
    ok(await api(t, cookie, 'POST', `/api/integrations/${integration.id}/trigger`));
    await t.services.integrations.idle();
    const warehouse = t.deps.warehouse.forAccount(team.accountId);
    const schemas = async () =>
      (
        await warehouse.all({
          sql: "SELECT schema_name FROM duckdb_schemas() WHERE schema_name = 'shop'",
          parameters: [],
        })
      ).length;
    expect(await schemas()).toBe(1);

    expectError(await api(t, team.readOnly.cookie, 'DELETE', `/api/integrations/${integration.id}`), 403);
    expect(await schemas()).toBe(1);
    const res = await api(t, cookie, 'DELETE', `/api/integrations/${integration.id}`);
    expect(res.status).toBe(204);
    expect(await schemas()).toBe(0);
    expectError(await api(t, cookie, 'GET', `/api/integrations/${integration.id}`), 404);
  });
});

/**
 * Airbyte-protocol sources are programs the operator registers (AIRBYTE_SOURCES); an account picks
 * one and gives only its JSON configuration. No configuration, custom definition or old integration
 * makes the server run a program of its choosing, and what a source prints never reaches an answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INTEGRATION_MESSAGES, SECRET_MASK } from '../../../src/shared/integrations';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { newId } from '../../../src/server/db/ids';
import { storeDatasets } from '../../../src/server/modules/integrations/discovery';
import { up as retireAirbyteCommand } from '../../../migrations/0006_retire_airbyte_command';
import { expectError, makeApp, makeTeam, signIn, type TestApp } from '../helpers';
import {
  api,
  createIntegration,
  datasetRows,
  definitionNamed,
  ok,
  selectDatasets,
  syncNow,
  type DatasetsResponse,
  type Integration,
  type IntegrationDefinition,
} from './helpers';
import { ITEMS } from './test-connector';

const PEER = path.join(import.meta.dirname, 'peers/airbyte-source.mjs');
const AS_ROOT = process.getuid?.() === 0;

/** A folder any user may write to: the marker a command would create, the source's call log. */
let shared: string;
beforeEach(() => {
  shared = fs.mkdtempSync(path.join(os.tmpdir(), 'airbyte-app-'));
  fs.chmodSync(shared, 0o777);
  // A copy any user may read: the checkout may sit in a folder closed to the user sources run as.
  fs.copyFileSync(PEER, path.join(shared, 'source.mjs'));
  fs.chmodSync(path.join(shared, 'source.mjs'), 0o644);
});
// The test that uses this folder as its app's data folder closes the app first; a file still being
// let go mid-removal is retried rather than failing the test.
afterEach(() => fs.rmSync(shared, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

const marker = () => path.join(shared, 'command-ran');
const calls = () => {
  const file = path.join(shared, 'calls');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
};

function sourcesFile(sources: unknown): string {
  const file = path.join(shared, 'sources.json');
  fs.writeFileSync(file, JSON.stringify(sources));
  return file;
}

const testSource = (over: Record<string, unknown> = {}) => ({
  key: 'test',
  name: 'Test source',
  command: process.execPath,
  args: [path.join(shared, 'source.mjs')],
  docs: 'A source for tests.',
  env: { PEER_CALLS: path.join(shared, 'calls') },
  ...over,
});

async function appWithSources(sources: unknown[] = [testSource()], env: Record<string, string> = {}) {
  const made = await makeApp({ SIGNUP: 'open', AIRBYTE_SOURCES: sourcesFile(sources), ...env });
  // DATA_DIR in env replaces makeApp's folder: the outbox is read from the one the app uses.
  const t: TestApp = { ...made, dataDir: made.deps.config.dataDir };
  const root = await signIn(t, 'root@example.com');
  return { t, root, team: await makeTeam(t) };
}

/** Configurations that try to name the program, its arguments, folder or environment. */
function commandConfigurations(): Record<string, unknown>[] {
  const touch = ['-c', `touch ${marker()}`];
  return [
    { command: '/bin/sh', args: touch },
    { command: '/bin/sh', args: touch.join(' '), source_config: '{"api_key":"good"}' },
    { api_key: 'good', command: '/bin/sh', args: touch },
    { api_key: 'good', args: touch },
    { api_key: 'good', working_directory: '/', env: { NODE_OPTIONS: `--require ${marker()}` } },
    { api_key: 'good', PATH: shared, HOME: '/root' },
  ];
}

describe('Airbyte sources registered by the operator', () => {
  it('a configuration that names a command is refused and nothing runs', async () => {
    const { t, root, team } = await appWithSources();
    const cookie = team.owner.cookie;
    const list = ok(await api<IntegrationDefinition[]>(t, cookie, 'GET', '/api/integration_definitions'));
    expect(list.map((d) => d.name)).not.toContain('Airbyte protocol');
    const registered = list.find((d) => d.name === 'Test source')!;
    expect(registered).toMatchObject({ type: 'Airbyte', isPublic: true, isCustom: false, canComplete: true });
    expect(registered.specification.settings).toMatchObject({ required: ['api_key'] });
    // A custom definition of type Airbyte by a global admin, whose form asks for a command.
    const custom = ok(
      await api<IntegrationDefinition>(t, root, 'POST', '/api/integration_definitions', {
        name: 'Shell source',
        type: 'Airbyte',
        isPublic: true,
        specification: JSON.stringify({
          settings: { properties: { command: { type: 'string' }, args: { type: 'string' } }, required: ['command'] },
        }),
      }),
      201,
    );
    expect(custom.canComplete).toBe(false);
    expect(calls()).toEqual(['spec']);

    const airbyteDefinitions = ok(
      await api<IntegrationDefinition[]>(t, cookie, 'GET', '/api/integration_definitions'),
    ).filter((d) => d.type === 'Airbyte');
    expect(airbyteDefinitions.map((d) => d.name).sort()).toEqual(['Shell source', 'Test source']);
    for (const definition of airbyteDefinitions) {
      for (const [i, configuration] of commandConfigurations().entries()) {
        const res = await createIntegration(t, cookie, {
          integrationDefinitionId: definition.id,
          name: `Attempt ${i}`,
          schemaName: `attempt_${i}`,
          configuration,
        });
        expect(res.status, `${definition.name}: ${JSON.stringify(configuration)}`).toBe(400);
        const message = expectError(res, 400);
        if (definition.name === 'Test source')
          expect(message).toMatch(/^(Unknown setting '\w+'|API key: This field is required)/);
        else expect(message).toBe(INTEGRATION_MESSAGES.noConnector);
      }
    }
    // The same through the settings of an integration that exists.
    const made = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: registered.id,
        name: 'Shop',
        schemaName: 'shop',
        configuration: { api_key: 'good' },
      }),
      201,
    );
    await t.services.integrations.idle();
    const callsBefore = calls();
    for (const configuration of commandConfigurations()) {
      const res = await api(t, cookie, 'PUT', `/api/integrations/${made.id}`, { configuration });
      expect(res.status, JSON.stringify(configuration)).toBe(400);
    }
    expect(calls()).toEqual(callsBefore);
    expect(fs.existsSync(marker())).toBe(false);
  });

  it("checks the configuration against the source's spec, answers the source's status, keeps secrets", async () => {
    const { t, team } = await appWithSources();
    const cookie = team.owner.cookie;
    const definition = await definitionNamed(t, cookie, 'Test source');
    const attempt = (configuration: unknown) =>
      createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'S',
        schemaName: 's',
        configuration,
      });
    expect(expectError(await attempt({}), 400)).toBe('API key: This field is required');
    expect(expectError(await attempt({ api_key: 'good', extra_customers: 'x' }), 400)).toBe(
      'Extra customers: must be an integer',
    );
    expect(expectError(await attempt({ api_key: 'good', region: { kind: 'custom' } }), 400)).toBe(
      'Region URL: This field is required',
    );
    expect(calls()).toEqual(['spec']);
    expect(expectError(await attempt({ api_key: 'bad' }), 400)).toBe(
      "The source's connection check failed: Invalid API key",
    );
    const created = ok(await attempt({ api_key: 'good', region: { kind: 'eu' } }), 201);
    expect(created.configuration).toEqual({ api_key: SECRET_MASK, region: { kind: 'eu' } });
    const stored = await t.deps.db
      .selectFrom('integrations')
      .select('configuration')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.configuration).not.toContain('good');
    await t.services.integrations.idle();
    const datasets = ok(await api<DatasetsResponse>(t, cookie, 'GET', `/api/integrations/${created.id}/datasets`));
    expect(datasets.datasets.map((d) => d.name)).toEqual(['customers', 'invoices', 'typed', 'environment']);
    // Saving with the mask keeps the key; the source's check sees the real one.
    ok(
      await api(t, cookie, 'PUT', `/api/integrations/${created.id}`, {
        configuration: { api_key: SECRET_MASK, extra_customers: 2 },
      }),
    );
  });

  it("never answers the source's stderr or error text; the server log and the run's log get them", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { t, team } = await appWithSources();
      const cookie = team.owner.cookie;
      const definition = await definitionNamed(t, cookie, 'Test source');
      for (const mode of ['stderr_crash', 'trace']) {
        const res = await createIntegration(t, cookie, {
          integrationDefinitionId: definition.id,
          name: 'Crash',
          schemaName: 'crash',
          configuration: { api_key: 'good', mode },
        });
        const message = expectError(res, 400);
        expect(message).toBe(
          "The source's connection check failed: the source stopped without answering; the server log has the details.",
        );
        expect(res.raw.body).not.toMatch(/SECRET-STDERR|uid=|INTERNAL-DETAIL|exit code|node|source\.mjs|airbyte-app-/);
      }
      const logged = errors.mock.calls.map((c) => String(c[0]));
      expect(logged.some((l) => l.startsWith('[airbyte:test check] stderr: SECRET-STDERR'))).toBe(true);
      expect(logged.some((l) => l.includes('INTERNAL-DETAIL'))).toBe(true);

      // A sync whose read crashes: stderr in the run's log, a generic error for the dataset.
      const created = ok(
        await createIntegration(t, cookie, {
          integrationDefinitionId: definition.id,
          name: 'Shop',
          schemaName: 'shop',
          configuration: { api_key: 'good', mode: 'crash' },
        }),
        201,
      );
      await t.services.integrations.idle();
      await selectDatasets(t, cookie, created.id, { customers: {} });
      const run = await syncNow(t, cookie, created.id);
      expect(run.status).toBe('Failed');
      const logs = run.logs.join('\n');
      expect(logs).toContain('[WARN] customers: stderr: Segmentation fault (pretend)');
      expect(logs).toContain(
        "[ERROR] customers: SystemError: The source's read failed. Its previous data is unchanged.",
      );
    } finally {
      errors.mockRestore();
    }
  });

  it('runs the source as an unprivileged user in a clean environment, in a folder of its own', async () => {
    const SERVER_SECRETS = {
      SECRETS_KEY: 'b'.repeat(64),
      SESSION_SECRET: 'a-server-session-secret-long-enough-for-the-check',
      SMTP_URL: 'smtp://user:mail-password@mail.example.com',
    };
    const saved = { ...process.env };
    Object.assign(process.env, SERVER_SECRETS);
    // The app's data folder is the shared one afterEach removes: it closes first (its background
    // work, a sync's scratch files and the search index, writes there until it has closed).
    let closeApp: (() => Promise<void>) | undefined;
    try {
      const { SMTP_URL: _mailIsNotUsedHere, ...serverEnv } = SERVER_SECRETS;
      // A data folder open to everyone, as `mkdir data` makes it.
      const dataDir = path.join(shared, 'data');
      fs.mkdirSync(dataDir, { mode: 0o755 });
      const { t, team } = await appWithSources([testSource()], { ...serverEnv, DATA_DIR: dataDir });
      closeApp = t.close;
      const cookie = team.owner.cookie;
      const definition = await definitionNamed(t, cookie, 'Test source');
      const created = ok(
        await createIntegration(t, cookie, {
          integrationDefinitionId: definition.id,
          name: 'Probe',
          schemaName: 'probe',
          configuration: { api_key: 'good' },
        }),
        201,
      );
      await t.services.integrations.idle();
      const selected = await selectDatasets(t, cookie, created.id, { environment: {} });
      const run = await syncNow(t, cookie, created.id);
      expect(run.status, run.logs.join('\n')).toBe('Completed');
      const datasetId = selected.datasets.find((d) => d.name === 'environment')!.id;
      const [seen] = await datasetRows(t, cookie, datasetId);
      const env = JSON.parse(String(seen?.env)) as Record<string, string>;
      expect(Object.keys(env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'PEER_CALLS', 'TMPDIR']);
      for (const secret of Object.values(SERVER_SECRETS)) expect(String(seen?.env)).not.toContain(secret);
      expect(fs.existsSync(String(seen?.cwd))).toBe(false);
      if (AS_ROOT) {
        expect(Number(seen?.uid)).toBe(65_534);
        expect(JSON.parse(String(seen?.groups))).not.toContain(0);
        // The data folder (metadata, warehouses, keys) is closed to the user sources run as.
        expect(fs.statSync(dataDir).mode & 0o007).toBe(0);
      } else {
        expect(Number(seen?.uid)).toBe(process.getuid?.());
      }
    } finally {
      await closeApp?.();
      for (const key of Object.keys(SERVER_SECRETS)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  it('a source whose spec fails is listed but cannot be used; its time limits are the operator’s', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { t, team } = await appWithSources([
        testSource({ timeoutSeconds: { check: 1 } }),
        testSource({ key: 'broken', name: 'Broken source', command: '/no/such/program' }),
      ]);
      const cookie = team.owner.cookie;
      const broken = await definitionNamed(t, cookie, 'Broken source');
      expect(broken.canComplete).toBe(false);
      const refused = await createIntegration(t, cookie, {
        integrationDefinitionId: broken.id,
        name: 'B',
        schemaName: 'b',
        configuration: {},
      });
      expect(expectError(refused, 400)).toBe(INTEGRATION_MESSAGES.noConnector);
      const logged = errors.mock.calls.map((c) => String(c[0]));
      expect(logged.some((l) => l.includes("Airbyte source 'broken'") && l.includes('spec failed'))).toBe(true);

      const definition = await definitionNamed(t, cookie, 'Test source');
      const started = Date.now();
      const hung = await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'H',
        schemaName: 'h',
        configuration: { api_key: 'good', mode: 'hang' },
      });
      expect(expectError(hung, 400)).toBe(
        "The source's connection check failed: The source's check did not finish within 1 s.",
      );
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      errors.mockRestore();
    }
  });

  it('refuses a sources file that is not right, naming AIRBYTE_SOURCES', () => {
    const load = (sources: unknown) => () =>
      loadConfig({ NODE_ENV: 'test', AIRBYTE_SOURCES: sourcesFile(sources), DATA_DIR: shared });
    expect(load([testSource({ command: 'node' })])).toThrow(
      /AIRBYTE_SOURCES: .*\[0\.command\]: must be an absolute path/,
    );
    expect(load([testSource(), testSource()])).toThrow(/AIRBYTE_SOURCES: .*'test' is listed twice/);
    expect(load([testSource({ shell: true })])).toThrow(/AIRBYTE_SOURCES: .*shell/);
    expect(load([testSource({ env: { 'BAD NAME': 'x' } })])).toThrow(/AIRBYTE_SOURCES: .*\[0\.env\.BAD NAME\]/);
    expect(load({ key: 'test' })).toThrow(ConfigError);
    expect(() => loadConfig({ AIRBYTE_SOURCES: path.join(shared, 'missing.json') })).toThrow(
      /AIRBYTE_SOURCES: .*missing\.json cannot be read \(ENOENT\)/,
    );
    expect(loadConfig({ AIRBYTE_SOURCES: sourcesFile([testSource()]) }).integrations.airbyteSources).toMatchObject([
      { key: 'test', timeoutMs: { spec: 30_000, check: 60_000, discover: 300_000, read: 21_600_000 } },
    ]);
  });
});

describe("integrations of the old 'Airbyte protocol' definition", () => {
  /** The definition and an integration as a server before the change stored them, then the migration. */
  async function oldIntegration(t: TestApp, accountId: string): Promise<{ definitionId: string; id: string }> {
    const definitionId = newId();
    const versionId = newId();
    const id = newId();
    const now = new Date().toISOString();
    const specification = JSON.stringify({
      settings: { properties: { command: { type: 'string' }, args: { type: 'string' } }, required: ['command'] },
    });
    await t.deps.db
      .insertInto('integration_definitions')
      .values({
        id: definitionId,
        key: 'airbyte',
        connector_key: 'airbyte',
        account_id: null,
        name: 'Airbyte protocol',
        type: 'Airbyte',
        icon: null,
        docs: null,
        is_custom: 0,
        is_public: 1,
        created_at: now,
      })
      .execute();
    await t.deps.db
      .insertInto('integration_definition_versions')
      .values({ id: versionId, definition_id: definitionId, version: 1, specification, is_latest: 1, created_at: now })
      .execute();
    await t.deps.db
      .insertInto('integrations')
      .values({
        id,
        account_id: accountId,
        definition_id: definitionId,
        definition_version_id: versionId,
        name: 'Old',
        schema_name: 'old',
        configuration: JSON.stringify({ command: '/bin/sh', args: `-c "touch ${marker()}"` }),
        webhook_token_hash: null,
        webhook_token_encrypted: null,
        email_address: null,
        sync_status: 'Inactive',
        sync_frequency_type: 'Manual',
        sync_pattern: null,
        schedule: JSON.stringify({ type: 'Manual' }),
        next_run_at: null,
        requires_reauthentication: 0,
        discovery_status: 'Loaded',
        discovery_error: null,
        created_at: now,
        modified_at: now,
      })
      .execute();
    await storeDatasets(t.deps.db, id, [ITEMS]);
    await retireAirbyteCommand(t.deps.db as never);
    return { definitionId, id };
  }

  it('are no longer listed nor creatable; their syncs, discovery and checks fail plainly and run nothing', async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    await signIn(t, 'root@example.com');
    const team = await makeTeam(t);
    const cookie = team.owner.cookie;
    const { definitionId, id } = await oldIntegration(t, team.accountId);

    const list = ok(await api<IntegrationDefinition[]>(t, cookie, 'GET', '/api/integration_definitions'));
    expect(list.map((d) => d.name)).not.toContain('Airbyte protocol');
    const created = await createIntegration(t, cookie, {
      integrationDefinitionId: definitionId,
      name: 'New',
      schemaName: 'new',
      configuration: { command: '/bin/sh', args: `-c "touch ${marker()}"` },
    });
    expectError(created, 404);

    const shown = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${id}`));
    expect(shown.definitionName).toBe('Airbyte protocol');
    await selectDatasets(t, cookie, id, { [ITEMS.name]: {} });
    const run = await syncNow(t, cookie, id);
    expect(run.status).toBe('Failed');
    expect(run.logs.join('\n')).toContain(INTEGRATION_MESSAGES.retiredCommandSource);

    ok(await api(t, cookie, 'POST', `/api/integrations/${id}/refresh-dataset`, { id }));
    await t.services.integrations.idle();
    const datasets = ok(
      await api<{ status: string; message: string }>(t, cookie, 'GET', `/api/integrations/${id}/datasets`),
    );
    expect(datasets.status).toBe('Error');
    expect(datasets.message).toContain(INTEGRATION_MESSAGES.retiredCommandSource);

    const saved = await api(t, cookie, 'PUT', `/api/integrations/${id}`, {
      configuration: { command: '/bin/sh', args: `-c "touch ${marker()}"` },
    });
    expect(expectError(saved, 400)).toBe(INTEGRATION_MESSAGES.retiredCommandSource);
    expect(fs.existsSync(marker())).toBe(false);
  });
});

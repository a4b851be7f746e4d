import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/shared/messages';
import type { TableSummary } from '../../../src/shared/tables';
import { expectError, listen, type CallResult, type TestApp, type TrpcError } from '../helpers';
import { appWithTeam, appWithTwoTeams, mutation, query, trpcOk } from '../static-tables/helpers';
import {
  api,
  createIntegration,
  definitionNamed,
  ok,
  sampleIntegration,
  selectDatasets,
  syncNow,
  expectCompleted,
  type Integration,
} from './helpers';

interface Call {
  name: string;
  write: boolean;
  send: (cookie: string) => Promise<CallResult>;
}

function calls(t: TestApp, id: string, jobId: string, datasetId: string): Call[] {
  const url = `/api/integrations/${id}`;
  return [
    { name: 'get', write: false, send: (c) => api(t, c, 'GET', url) },
    { name: 'datasets', write: false, send: (c) => api(t, c, 'GET', `${url}/datasets`) },
    { name: 'jobs', write: false, send: (c) => api(t, c, 'GET', `${url}/jobs?Page=1&PageSize=5`) },
    { name: 'logs', write: false, send: (c) => api(t, c, 'GET', `${url}/jobs/${jobId}/logs`) },
    { name: 'job_status', write: false, send: (c) => api(t, c, 'GET', `${url}/job_status`) },
    {
      name: 'dataset table',
      write: false,
      send: (c) => api(t, c, 'GET', `/api/tables/IntegrationDataset/${datasetId}`),
    },
    {
      name: 'dataset rows',
      write: false,
      send: (c) => api(t, c, 'POST', `/api/tables/IntegrationDataset/${datasetId}/data/infinite-scroll`, {}),
    },
    { name: 'settings', write: true, send: (c) => api(t, c, 'PUT', url, { name: 'Taken over' }) },
    { name: 'refresh-dataset', write: true, send: (c) => api(t, c, 'POST', `${url}/refresh-dataset`, { id }) },
    {
      name: 'save datasets',
      write: true,
      send: (c) => api(t, c, 'PUT', `${url}/datasets`, { datasets: { customers: { isSelected: false } } }),
    },
    { name: 'schedule', write: true, send: (c) => api(t, c, 'PUT', `${url}/schedule`, { status: 'Active' }) },
    { name: 'trigger', write: true, send: (c) => api(t, c, 'POST', `${url}/trigger`) },
    {
      name: 'full refresh',
      write: true,
      send: (c) => api(t, c, 'POST', `${url}/trigger-full-refresh`, { datasets: ['customers'] }),
    },
    { name: 'delete', write: true, send: (c) => api(t, c, 'DELETE', url) },
  ];
}

describe('integrations access', () => {
  it("other accounts' ids answer 404 for every call; read_only members read but get 403 on writes", async () => {
    const { t, a, b } = await appWithTwoTeams();
    const integration = await sampleIntegration(t, a.owner.cookie);
    await selectDatasets(t, a.owner.cookie, integration.id, {
      customers: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, a.owner.cookie, integration.id);
    expectCompleted(run);
    const datasetId = ok(
      await api<Integration>(t, a.owner.cookie, 'GET', `/api/integrations/${integration.id}`),
    ).datasets.find((d) => d.name === 'customers')!.id;

    for (const call of calls(t, integration.id, run.id, datasetId)) {
      expectError(await call.send(b.owner.cookie), 404);
      const asReader = await call.send(a.readOnly.cookie);
      if (call.write) expect(asReader.status, call.name).toBe(403);
      else expect(asReader.status, `${call.name}: ${JSON.stringify(asReader.body)}`).toBe(200);
    }
    expect(ok(await api<Integration[]>(t, b.owner.cookie, 'GET', '/api/integrations'))).toEqual([]);
    expect(ok(await api<TableSummary[]>(t, b.owner.cookie, 'GET', '/api/tables?types=IntegrationDataset'))).toEqual([]);
    const stats = ok(
      await api<{ count: number }[]>(t, b.owner.cookie, 'GET', '/api/integrations/stats/records-per-day'),
    );
    expect(stats).toHaveLength(30);
    expect(stats.every((d) => d.count === 0)).toBe(true);
    expect(
      ok(await api<{ count: number }[]>(t, a.owner.cookie, 'GET', '/api/integrations/stats/records-per-day')).at(-1)!
        .count,
    ).toBe(200);
    // Nothing changed for the owner.
    const after = ok(await api<Integration>(t, a.owner.cookie, 'GET', `/api/integrations/${integration.id}`));
    expect(after.name).toBe(integration.name);
    expect(after.syncStatus).toBe('Inactive');
  });

  it('tRPC: list, create, datasets, trigger and records per day; refusals carry the codes', async () => {
    const { t, a, b } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const definitions = trpcOk(
      await query<{ id: string; name: string }[]>(t, 'integrations.definitions', undefined, cookie),
    );
    const sample = definitions.find((d) => d.name === 'Sample data')!;
    const created = trpcOk(
      await mutation<Integration>(
        t,
        'integrations.create',
        { integrationDefinitionId: sample.id, name: 'Via tRPC', schemaName: 'via trpc' },
        cookie,
      ),
    );
    expect(created.schemaName).toBe('via_trpc');
    await t.services.integrations.idle();
    const datasets = trpcOk(
      await query<{ datasets: { name: string }[] }>(t, 'integrations.datasets', { id: created.id }, cookie),
    );
    expect(datasets.datasets).toHaveLength(3);
    trpcOk(
      await mutation(
        t,
        'integrations.saveDatasets',
        { id: created.id, datasets: { products: { isSelected: true } } },
        cookie,
      ),
    );
    trpcOk(await mutation(t, 'integrations.trigger', { id: created.id }, cookie));
    await t.services.integrations.idle();
    const status = trpcOk(await query<{ status: string }>(t, 'integrations.jobStatus', { id: created.id }, cookie));
    expect(status.status).toBe('Completed');
    const perDay = trpcOk(await query<{ count: number }[]>(t, 'integrations.recordsPerDay', { days: 3 }, cookie));
    expect(perDay.map((d) => d.count)).toEqual([0, 0, 50]);
    const list = trpcOk(await query<Integration[]>(t, 'integrations.list', undefined, cookie));
    expect(list.map((i) => i.name)).toEqual(['Via tRPC']);

    const hidden = (await query(
      t,
      'integrations.get',
      { id: created.id },
      b.owner.cookie,
    )) as unknown as CallResult<TrpcError>;
    expect(hidden.body.error.data.code).toBe('NOT_FOUND');
    const refused = (await mutation(
      t,
      'integrations.trigger',
      { id: created.id },
      a.readOnly.cookie,
    )) as unknown as CallResult<TrpcError>;
    expect(refused.body.error.data.code).toBe('FORBIDDEN');
  });
});

describe('push addresses are credentials: shown only to writers, and writers can change them', () => {
  async function pushIntegrations(t: TestApp, cookie: string) {
    const create = async (definitionName: string, name: string) => {
      const definition = await definitionNamed(t, cookie, definitionName);
      return ok(
        await createIntegration(t, cookie, { integrationDefinitionId: definition.id, name, schemaName: name }),
        201,
      );
    };
    return { hook: await create('Webhook', 'hooks'), inbox: await create('Incoming e-mail', 'inbox') };
  }
  const secretsOf = (hook: Integration, inbox: Integration) => [
    hook.webhookToken!,
    inbox.emailAddress!.replace(/@.*$/, ''),
  ];

  it('read_only members get no webhook token, URL or e-mail address in REST and tRPC, single or listed', async () => {
    const { t, team } = await appWithTeam();
    const { hook, inbox } = await pushIntegrations(t, team.owner.cookie);
    expect(hook.webhookToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(inbox.emailAddress).toMatch(/^inbox\.[0-9a-f]{16}@/);
    const secrets = secretsOf(hook, inbox);

    const answers = async (cookie: string) => [
      ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${hook.id}`)),
      ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${inbox.id}`)),
      ...ok(await api<Integration[]>(t, cookie, 'GET', '/api/integrations')),
      trpcOk(await query<Integration>(t, 'integrations.get', { id: hook.id }, cookie)),
      trpcOk(await query<Integration>(t, 'integrations.get', { id: inbox.id }, cookie)),
      ...trpcOk(await query<Integration[]>(t, 'integrations.list', undefined, cookie)),
    ];
    const forReader = await answers(team.readOnly.cookie);
    expect(forReader).toHaveLength(8);
    for (const integration of forReader) {
      expect(integration).toMatchObject({ webhookToken: null, webhookUrl: null, emailAddress: null });
      // Nowhere in the answer, nested or not.
      for (const secret of secrets) expect(JSON.stringify(integration)).not.toContain(secret);
    }
    // Writers (owner and admin) see them.
    for (const cookie of [team.owner.cookie, team.admin.cookie]) {
      const seen = await answers(cookie);
      expect(seen.filter((i) => i.type === 'Webhook').every((i) => i.webhookToken === hook.webhookToken)).toBe(true);
      expect(seen.filter((i) => i.type === 'IncomingEmail').every((i) => i.emailAddress === inbox.emailAddress)).toBe(
        true,
      );
    }
    // The settings save and schedule answers follow the same rule: a writer's save shows the address to the writer.
    const renamed = ok(
      await api<Integration>(t, team.admin.cookie, 'PUT', `/api/integrations/${hook.id}`, { name: 'Hooks 2' }),
    );
    expect(renamed.webhookToken).toBe(hook.webhookToken);
  });

  it('writers change the webhook address (REST) and the e-mail address (tRPC); the old ones stop at once', async () => {
    const { t, team } = await appWithTeam();
    const { hook, inbox } = await pushIntegrations(t, team.owner.cookie);
    const base = await listen(t);
    const post = (url: string, body: unknown) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post(hook.webhookUrl!, { n: 1 })).status).toBe(200);

    const rotated = ok(
      await api<Integration>(t, team.admin.cookie, 'POST', `/api/integrations/${hook.id}/rotate-address`, {}),
    );
    expect(rotated.webhookToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.webhookToken).not.toBe(hook.webhookToken);
    expect(rotated.webhookUrl).toBe(`/api/integrations/webhook/${rotated.webhookToken}`);
    // The old address answers exactly as one that never existed.
    const old = await post(hook.webhookUrl!, { n: 2 });
    const never = await post(`/api/integrations/webhook/${'x'.repeat(43)}`, { n: 2 });
    expect(old.status).toBe(404);
    expect(await old.json()).toEqual(await never.json());
    expect((await post(rotated.webhookUrl!, { n: 3 })).status).toBe(200);
    const stored = await t.deps.db
      .selectFrom('integrations')
      .selectAll()
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(hook.webhookToken);

    const receive = (address: string) =>
      t.services.integrations.receiveAttachment({
        address,
        fileName: 'sales.csv',
        contentType: 'text/csv',
        path: writeScratch(t, 'region,amount\nNorth,10\n'),
      });
    const changed = trpcOk(
      await mutation<Integration>(t, 'integrations.rotateAddress', { id: inbox.id }, team.owner.cookie),
    );
    expect(changed.emailAddress).toMatch(/^inbox\.[0-9a-f]{16}@/);
    expect(changed.emailAddress).not.toBe(inbox.emailAddress);
    expect(await receive(inbox.emailAddress!)).toMatchObject({ stored: false });
    expect(await receive(changed.emailAddress!)).toMatchObject({ stored: true, rows: 1 });
    expect(ok(await api<Integration>(t, team.owner.cookie, 'GET', `/api/integrations/${inbox.id}`)).emailAddress).toBe(
      changed.emailAddress,
    );
  });

  it('read_only members and other accounts cannot change an address; synced integrations have none', async () => {
    const { t, a, b } = await appWithTwoTeams();
    const { hook } = await pushIntegrations(t, a.owner.cookie);
    const url = `/api/integrations/${hook.id}/rotate-address`;
    expect(expectError(await api(t, a.readOnly.cookie, 'POST', url, {}), 403)).toBe(MESSAGES.readOnly);
    const refused = (await mutation(
      t,
      'integrations.rotateAddress',
      { id: hook.id },
      a.readOnly.cookie,
    )) as unknown as CallResult<TrpcError>;
    expect(refused.body.error.data.code).toBe('FORBIDDEN');
    expectError(await api(t, b.owner.cookie, 'POST', url, {}), 404);
    const hidden = (await mutation(
      t,
      'integrations.rotateAddress',
      { id: hook.id },
      b.owner.cookie,
    )) as unknown as CallResult<TrpcError>;
    expect(hidden.body.error.data.code).toBe('NOT_FOUND');
    // Still the same address.
    expect(ok(await api<Integration>(t, a.owner.cookie, 'GET', `/api/integrations/${hook.id}`)).webhookToken).toBe(
      hook.webhookToken,
    );
    const sample = await sampleIntegration(t, a.owner.cookie);
    expect(
      expectError(await api(t, a.owner.cookie, 'POST', `/api/integrations/${sample.id}/rotate-address`, {}), 400),
    ).toBe('Only Webhook and Incoming e-mail integrations have an address to change.');
  });
});

function writeScratch(t: TestApp, content: string): string {
  const file = path.join(t.dataDir, `mail-${Math.random().toString(36).slice(2)}.csv`);
  fs.writeFileSync(file, content);
  return file;
}

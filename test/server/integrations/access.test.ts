import { describe, expect, it } from 'vitest';
import type { TableSummary } from '../../../src/shared/tables';
import { expectError, type CallResult, type TestApp, type TrpcError } from '../helpers';
import { appWithTwoTeams, mutation, query, trpcOk } from '../static-tables/helpers';
import { api, ok, sampleIntegration, selectDatasets, syncNow, expectCompleted, type Integration } from './helpers';

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

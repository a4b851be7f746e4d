import { expect } from 'vitest';
import type {
  DatasetsResponse,
  Integration,
  IntegrationDefinition,
  Job,
  Run,
  RunLog,
} from '../../../src/shared/integrations';
import type { Paged } from '../../../src/shared/tables';
import { call, type CallResult, type TestApp } from '../helpers';
import { ok } from '../static-tables/helpers';

export { ok };
export type { DatasetsResponse, Integration, IntegrationDefinition, Job, Run, RunLog };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const api = <T>(t: TestApp, cookie: string, method: Method, url: string, body?: unknown) =>
  call<T>(t.server, method, url, { cookie, ...(body === undefined ? {} : { body }) });

export async function definitionNamed(t: TestApp, cookie: string, name: string): Promise<IntegrationDefinition> {
  const list = ok(await api<IntegrationDefinition[]>(t, cookie, 'GET', '/api/integration_definitions'));
  const found = list.find((d) => d.name === name);
  if (!found) throw new Error(`No definition ${name} in ${list.map((d) => d.name).join(', ')}`);
  return found;
}

export function createIntegration(
  t: TestApp,
  cookie: string,
  body: { integrationDefinitionId: string; name: string; schemaName: string; configuration?: unknown },
): Promise<CallResult<Integration>> {
  return api<Integration>(t, cookie, 'POST', '/api/integrations', body);
}

/** A Sample data integration with discovery finished. */
export async function sampleIntegration(t: TestApp, cookie: string, name = 'Shop'): Promise<Integration> {
  const definition = await definitionNamed(t, cookie, 'Sample data');
  const created = ok(
    await createIntegration(t, cookie, {
      integrationDefinitionId: definition.id,
      name,
      schemaName: name,
      configuration: {},
    }),
    201,
  );
  await t.services.integrations.idle();
  return created;
}

/** Selects datasets (all properties, given sync and ingestion types). */
export async function selectDatasets(
  t: TestApp,
  cookie: string,
  id: string,
  datasets: Record<string, { syncType?: string; dataIngestionType?: string; selectedProperties?: string[] }>,
): Promise<DatasetsResponse> {
  const body = {
    datasets: Object.fromEntries(
      Object.entries(datasets).map(([name, change]) => [name, { isSelected: true, ...change }]),
    ),
  };
  return ok(await api<DatasetsResponse>(t, cookie, 'PUT', `/api/integrations/${id}/datasets`, body));
}

/** Triggers a sync and waits for it to end; returns the finished run. */
export async function syncNow(t: TestApp, cookie: string, id: string): Promise<Job & { logs: string[] }> {
  const run = ok(await api<Run>(t, cookie, 'POST', `/api/integrations/${id}/trigger`));
  await t.services.integrations.idle();
  const job = await finishedRun(t, cookie, id, run.id);
  return { ...job, logs: (await logsOf(t, cookie, id, run.id)).map((l) => l.line) };
}

/** The run ended Completed; the logs show otherwise. */
export function expectCompleted(run: { status: string; logs: string[] }): void {
  expect(run.status, run.logs.join('\n')).toBe('Completed');
}

export async function finishedRun(t: TestApp, cookie: string, id: string, runId: string): Promise<Job> {
  const jobs = ok(await api<Paged<Job>>(t, cookie, 'GET', `/api/integrations/${id}/jobs?Page=1&PageSize=50`));
  const job = jobs.data.find((j) => j.id === runId);
  if (!job) throw new Error(`Run ${runId} not listed`);
  expect(['Completed', 'Failed', 'Cancelled']).toContain(job.status);
  return job;
}

export async function logsOf(t: TestApp, cookie: string, id: string, runId: string): Promise<RunLog[]> {
  return ok(await api<RunLog[]>(t, cookie, 'GET', `/api/integrations/${id}/jobs/${runId}/logs`));
}

/** The dataset's rows through the tables API (IntegrationDataset). */
export async function datasetRows(
  t: TestApp,
  cookie: string,
  datasetId: string,
  body: Record<string, unknown> = {},
): Promise<Record<string, unknown>[]> {
  const res = await api<Paged<Record<string, unknown>>>(
    t,
    cookie,
    'POST',
    `/api/tables/IntegrationDataset/${datasetId}/data/infinite-scroll`,
    { page: 1, pageSize: 1000, ...body },
  );
  return ok(res).data;
}

export async function datasetCount(t: TestApp, cookie: string, datasetId: string): Promise<number> {
  const res = await api<{ totalCount: number }>(
    t,
    cookie,
    'POST',
    `/api/tables/IntegrationDataset/${datasetId}/data/count`,
    {},
  );
  return ok(res).totalCount;
}

/** Rows of a warehouse table, read straight from DuckDB. */
export async function warehouseRows(t: TestApp, accountId: string, sql: string): Promise<Record<string, unknown>[]> {
  return t.deps.warehouse.forAccount(accountId).all({ sql, parameters: [] });
}

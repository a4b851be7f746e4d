/** What the crash suite does in the workspace, through the REST API of the server process. */
import { expect } from 'vitest';
import type { DatasetsResponse, Integration, IntegrationDefinition, Job, RunLog } from '../../src/shared/integrations';
import type { Model } from '../../src/shared/models';
import type { Paged } from '../../src/shared/tables';
import { waitFor, type Client } from './client';
import { sourceConfiguration } from './source-api';

const FINISHED = ['Completed', 'Failed', 'Cancelled'];

export async function createRestIntegration(client: Client, baseUrl: string, name = 'Source'): Promise<Integration> {
  const definitions = await client.ok<IntegrationDefinition[]>('GET', '/api/integration_definitions');
  const rest = definitions.find((d) => d.name === 'REST API');
  if (!rest) throw new Error('No REST API definition');
  const integration = await client.ok<Integration>(
    'POST',
    '/api/integrations',
    { integrationDefinitionId: rest.id, name, schemaName: name, configuration: sourceConfiguration(baseUrl) },
    201,
  );
  await waitFor('discovery', async () => {
    const found = await client.ok<DatasetsResponse>('GET', `/api/integrations/${integration.id}/datasets`);
    return found.status === 'Processing' ? null : found;
  });
  await client.ok('PUT', `/api/integrations/${integration.id}/datasets`, {
    datasets: { Items: { isSelected: true, syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } },
  });
  return integration;
}

export async function runs(client: Client, integrationId: string): Promise<Job[]> {
  const page = await client.ok<Paged<Job>>('GET', `/api/integrations/${integrationId}/jobs?Page=1&PageSize=50`);
  return page.data;
}

export async function logLines(client: Client, integrationId: string, runId: string): Promise<string[]> {
  const logs = await client.ok<RunLog[]>('GET', `/api/integrations/${integrationId}/jobs/${runId}/logs`);
  return logs.map((l) => l.line);
}

/** Starts a full refresh of Items; returns the run's id. */
export async function startRefresh(client: Client, integrationId: string): Promise<string> {
  const run = await client.ok<{ id: string }>('POST', `/api/integrations/${integrationId}/trigger-full-refresh`, {
    datasets: ['Items'],
  });
  return run.id;
}

export async function runEnd(client: Client, integrationId: string, runId: string): Promise<Job> {
  return waitFor(`run ${runId}`, async () => {
    const run = (await runs(client, integrationId)).find((r) => r.id === runId);
    return run && FINISHED.includes(run.status) ? run : null;
  });
}

export async function syncToEnd(client: Client, integrationId: string): Promise<Job> {
  const run = await runEnd(client, integrationId, await startRefresh(client, integrationId));
  expect(run.status, (await logLines(client, integrationId, run.id)).join('\n')).toBe('Completed');
  return run;
}

export interface StaticTable {
  id: string;
  name: string;
  rowCount: number;
  columns: { columnKey: string; displayName: string }[];
}

/** A static table made with JSON rows. */
export async function createTable(client: Client, name: string, rows: number): Promise<StaticTable> {
  return client.ok<StaticTable>(
    'POST',
    '/api/static-tables',
    {
      name,
      columns: [{ displayName: 'Region' }, { displayName: 'Amount' }],
      rows: Array.from({ length: rows }, (_, i) => [`region ${i % 7}`, String(i * 3)]),
    },
    201,
  );
}

/** A CSV of `rows` rows whose values name `generation`, with a column set of that generation. */
export function csvOf(generation: number, rows: number): string {
  const header = ['id', 'label', 'value', `only_in_${generation}`].join(',');
  const lines = Array.from(
    { length: rows },
    (_, i) => `${i + 1},g${generation} row ${i + 1},${(i * generation) / 4},${generation}`,
  );
  return `${header}\n${lines.join('\n')}\n`;
}

export function uploadCsv(client: Client, tableId: string, csv: string) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'data.csv');
  return fetch(`${client.server.url}/api/static-tables/${tableId}/upload`, {
    method: 'PUT',
    headers: { origin: client.server.url, cookie: client.cookie },
    body: form,
  });
}

/** A model over a static table: its two columns and a formula column. */
export async function createModel(client: Client, table: StaticTable, name = 'Sales'): Promise<Model> {
  const model = await client.ok<Model>('POST', '/api/models', { name }, 201);
  for (const column of table.columns) {
    await client.ok(
      'POST',
      `/api/models/${model.id}/columns`,
      {
        displayName: column.displayName,
        sourceColumn: { sourceId: table.id, sourceType: 'StaticTable', columnKey: column.columnKey },
      },
      201,
    );
  }
  return client.ok<Model>('POST', `/api/models/${model.id}/publish`, {});
}

/** Adds a formula column to the model's draft. */
export async function addFormula(client: Client, modelId: string, displayName: string, formula: string) {
  return client.ok<Model>('POST', `/api/models/${modelId}/columns`, { displayName, function: formula }, 201);
}

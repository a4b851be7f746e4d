import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningServer } from './harness';

/** Calls the REST API as a script would, naming this site as the browser does. */
export async function api<T>(
  page: Page,
  server: RunningServer,
  method: 'post' | 'put' | 'get' | 'delete',
  path: string,
  data?: unknown,
): Promise<T> {
  const headers = { origin: server.url };
  const res = await page.request[method](`${server.url}${path}`, data === undefined ? { headers } : { data, headers });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

interface WithColumns {
  id: string;
  columns: { columnKey: string; displayName: string }[];
}

/** A static table made from CSV text through the upload endpoint. */
export async function tableFromCsv(page: Page, server: RunningServer, name: string, csv: string): Promise<WithColumns> {
  const { id } = await api<{ id: string }>(page, server, 'post', '/api/static-tables', { name });
  const upload = await page.request.put(`${server.url}/api/static-tables/${id}/upload`, {
    headers: { origin: server.url },
    multipart: { file: { name: `${name}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(upload.status()).toBe(200);
  return api<WithColumns>(page, server, 'get', `/api/static-tables/${id}`);
}

/** The pages of one of each thing: what layout and role tests walk through. */
export interface Workspace {
  tableId: string;
  modelId: string;
  pivotKey: string;
  integrationId: string;
}

const ORDERS_CSV = [
  'order_id,customer,amount,region,ordered_on',
  ...Array.from(
    { length: 240 },
    (_, i) =>
      `${i + 1},Customer ${i % 17},${(i * 7.5) % 300},${['North', 'South', 'East', 'West'][i % 4]},2024-0${(i % 9) + 1}-1${i % 10}`,
  ),
].join('\n');

/** A table of 240 orders (enough for several grid pages), a model over it with a pivot, an integration. */
export async function seedWorkspace(page: Page, server: RunningServer): Promise<Workspace> {
  const orders = await tableFromCsv(page, server, 'Orders', ORDERS_CSV);
  const key = (name: string) => orders.columns.find((c) => c.displayName === name)!.columnKey;
  const model = await api<WithColumns>(page, server, 'post', '/api/models', { name: 'Sales' });
  for (const [name, as] of [
    ['amount', 'Amount'],
    ['region', 'Region'],
    ['customer', 'Customer'],
  ]) {
    await api(page, server, 'post', `/api/models/${model.id}/columns`, {
      displayName: as,
      sourceColumn: { sourceId: orders.id, sourceType: 'StaticTable', columnKey: key(name!) },
    });
  }
  const withColumns = await api<WithColumns>(page, server, 'get', `/api/models/${model.id}`);
  const modelKey = (name: string) => withColumns.columns.find((c) => c.displayName === name)!.columnKey;
  const pivotKey = 'pvta';
  await api(page, server, 'put', `/api/models/${model.id}/pivots`, {
    pivots: [
      {
        key: pivotKey,
        name: 'By region',
        rows: [{ column: modelKey('Region') }],
        values: [{ column: modelKey('Amount'), function: 'Sum' }],
      },
    ],
  });
  const definitions = await api<{ id: string; name: string }[]>(page, server, 'get', '/api/integration_definitions');
  const sample = definitions.find((d) => d.name === 'Sample data')!;
  const integration = await api<{ id: string }>(page, server, 'post', '/api/integrations', {
    integrationDefinitionId: sample.id,
    name: 'My Shop',
    schemaName: 'my_shop',
  });
  return { tableId: orders.id, modelId: model.id, pivotKey, integrationId: integration.id };
}

/** The main pages, by name, for a seeded workspace. */
export function mainPages(w: Workspace): Record<string, string> {
  return {
    home: '/',
    tables: '/tables',
    table: `/tables/${w.tableId}`,
    models: '/models',
    model: `/models/${w.modelId}`,
    pivot: `/models/${w.modelId}/pivot/${w.pivotKey}`,
    integrations: '/integrations',
    integration: `/integrations/${w.integrationId}`,
    queries: '/querytool',
    'settings-account': '/settings/account',
    'settings-user': '/settings/user',
    admin: '/admin',
  };
}

import { describe, expect, it } from 'vitest';
import type { Paged, TableSummary } from '../../../src/shared/tables';
import { appWithTeam } from '../static-tables/helpers';
import {
  api,
  datasetCount,
  datasetRows,
  expectCompleted,
  logsOf,
  ok,
  sampleIntegration,
  selectDatasets,
  syncNow,
  type DatasetsResponse,
  type Integration,
  type Job,
} from './helpers';

describe('Sample data: discovery and syncs', () => {
  it('discovers customers, orders and products, then a full sync lands typed rows in the schema', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie, 'My Shop!');
    expect(integration.schemaName).toBe('my_shop_');
    expect(integration.type).toBe('Sample');

    const discovered = ok(
      await api<DatasetsResponse>(t, cookie, 'GET', `/api/integrations/${integration.id}/datasets`),
    );
    expect(discovered.status).toBe('Loaded');
    expect(discovered.datasets.map((d) => d.name).sort()).toEqual(['customers', 'orders', 'products']);
    const orders = discovered.datasets.find((d) => d.name === 'orders');
    expect(orders?.primaryKey).toEqual(['order_id']);
    expect(orders?.cursorField).toBe('updated_at');
    expect(orders?.isSelected).toBe(false);

    await selectDatasets(t, cookie, integration.id, {
      customers: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
      orders: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, cookie, integration.id);
    expectCompleted(run);
    expect(run.attempts).toHaveLength(1);
    const progress = run.attempts[0]!.progress;
    expect(progress.datasets.map((d) => [d.name, d.status])).toEqual([
      ['customers', 'Completed'],
      ['orders', 'Completed'],
    ]);
    const orderProgress = progress.datasets.find((d) => d.name === 'orders')!;
    expect(orderProgress.recordsProcessed).toBeGreaterThan(1900);
    expect(orderProgress.recordsProcessed).toBeLessThan(2100);
    expect(orderProgress.bytesProcessed).toBeGreaterThan(0);
    expect(run.recordsProcessed).toBe(200 + orderProgress.recordsProcessed);

    const logs = await logsOf(t, cookie, integration.id, run.id);
    expect(logs.map((l) => l.line)).toContain('[INFO] Sync completed.');
    expect(logs.every((l) => /^\[(INFO|WARN|ERROR)\] /.test(l.line))).toBe(true);

    // The rows are in the integration's schema with typed columns.
    const types = await t.deps.warehouse.forAccount(team.accountId).all({
      sql: "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'my_shop_' AND table_name = 'orders' ORDER BY ordinal_position",
      parameters: [],
    });
    const typeOf = Object.fromEntries(types.map((r) => [r.column_name, r.data_type]));
    expect(typeOf).toMatchObject({ order_id: 'BIGINT', status: 'VARCHAR', ordered_at: 'TIMESTAMP WITH TIME ZONE' });

    // The tables API lists and pages the datasets.
    const tables = ok(await api<TableSummary[]>(t, cookie, 'GET', '/api/tables?types=IntegrationDataset'));
    expect(tables.map((x) => [x.name, x.groupName, x.type])).toEqual([
      ['customers', 'My Shop!', 'IntegrationDataset'],
      ['orders', 'My Shop!', 'IntegrationDataset'],
    ]);
    const ordersTable = tables.find((x) => x.name === 'orders')!;
    expect(ordersTable.columns.find((c) => c.columnKey === 'ordered_at')?.type).toBe('DateTime');
    expect(await datasetCount(t, cookie, ordersTable.id)).toBe(orderProgress.recordsProcessed);
    const big = await datasetRows(t, cookie, ordersTable.id, {
      filterGroups: [{ filters: [{ columnKey: 'amount', operator: 'GreaterThan', value: 200 }] }],
      sorting: [{ columnKey: 'amount', direction: 'Descending' }],
    });
    expect(big.length).toBeGreaterThan(0);
    expect(big.every((r) => Number(r.amount) > 200)).toBe(true);
    expect(Number(big[0]!.amount)).toBeGreaterThanOrEqual(Number(big.at(-1)!.amount));

    // A second full refresh overwrites: same count, no duplicates.
    const again = await syncNow(t, cookie, integration.id);
    expectCompleted(again);
    expect(await datasetCount(t, cookie, ordersTable.id)).toBe(orderProgress.recordsProcessed);

    const download = await api<string>(
      t,
      cookie,
      'GET',
      `/api/tables/IntegrationDataset/${ordersTable.id}/download?format=csv`,
    );
    expect(download.status).toBe(200);
    expect(String(download.raw.body).split('\n')[0]).toContain('order_id');

    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    expect(detail.recentRuns.map((r) => r.status)).toEqual(['Completed', 'Completed']);
    expect(detail.datasets.filter((d) => d.hasData).map((d) => d.name)).toEqual(['customers', 'orders']);
  });

  it('incremental syncs read only new orders; append-dedup keeps one row per key', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    await selectDatasets(t, cookie, integration.id, {
      orders: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
    });
    const first = await syncNow(t, cookie, integration.id);
    expectCompleted(first);
    const table = ok(await api<TableSummary[]>(t, cookie, 'GET', '/api/tables?types=IntegrationDataset'))[0]!;
    const initial = await datasetCount(t, cookie, table.id);
    expect(initial).toBe(first.recordsProcessed);

    // Nothing new yet: the cursor state holds and nothing is read.
    const none = await syncNow(t, cookie, integration.id);
    expect(none.recordsProcessed).toBe(0);
    expect(await datasetCount(t, cookie, table.id)).toBe(initial);

    // Two days later about 11 new orders (one every ~4.4 h) arrive.
    t.clock.advance(2 * 86_400_000);
    const later = await syncNow(t, cookie, integration.id);
    expectCompleted(later);
    expect(later.recordsProcessed).toBeGreaterThanOrEqual(10);
    expect(later.recordsProcessed).toBeLessThanOrEqual(12);
    expect(await datasetCount(t, cookie, table.id)).toBe(initial + later.recordsProcessed);

    // A full refresh of the dataset re-reads everything; the table is replaced, keys stay unique.
    const refresh = ok(
      await api<Job>(t, cookie, 'POST', `/api/integrations/${integration.id}/trigger-full-refresh`, {
        datasets: ['orders'],
      }),
    );
    await t.services.integrations.idle();
    const jobs = ok(
      await api<Paged<Job>>(t, cookie, 'GET', `/api/integrations/${integration.id}/jobs?Page=1&PageSize=1`),
    );
    expect(jobs.data[0]!.id).toBe(refresh.id);
    expect(jobs.data[0]!.kind).toBe('FullRefresh');
    expect(jobs.data[0]!.status).toBe('Completed');
    const rows = await t.deps.warehouse.forAccount(team.accountId).all({
      sql: 'SELECT count(*)::DOUBLE AS n, count(DISTINCT order_id)::DOUBLE AS keys FROM shop.orders',
      parameters: [],
    });
    expect(rows[0]!.n).toBe(rows[0]!.keys);
  });
});

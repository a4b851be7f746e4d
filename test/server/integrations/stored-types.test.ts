/**
 * An append meets a table whose column has another type: the column takes a type holding both
 * exactly, or becomes exact text; a dataset stored before exact types keeps working and its run
 * log says a full refresh stores the new type.
 */
import { describe, expect, it } from 'vitest';
import type { ReadItem } from '../../../src/server/modules/integrations/connectors/types';
import { reconcile } from '../../../src/server/modules/integrations/stored-types';
import { appWithTeam } from '../static-tables/helpers';
import {
  api,
  createIntegration,
  datasetRows,
  expectCompleted,
  ok,
  selectDatasets,
  syncNow,
  type Integration,
} from './helpers';
import { customDefinition, ITEMS, registerTestSource } from './test-connector';

describe('column types of appends', () => {
  it('reconciles stored and staged types exactly', () => {
    expect(reconcile('BIGINT', 'INTEGER')).toEqual({ action: 'keep' });
    expect(reconcile('INTEGER', 'BIGINT')).toEqual({ action: 'widen', type: 'BIGINT' });
    expect(reconcile('DECIMAL(38,2)', 'DECIMAL(38,4)')).toEqual({ action: 'decimal', intDigits: 36, scale: 4 });
    expect(reconcile('BIGINT', 'DECIMAL(10,2)')).toEqual({ action: 'decimal', intDigits: 19, scale: 2 });
    expect(reconcile('VARCHAR', 'BIGINT')).toEqual({ action: 'keep' });
    expect(reconcile('DATE', 'VARCHAR')).toEqual({ action: 'widen', type: 'VARCHAR' });
    expect(reconcile('DATE', 'TIMESTAMP WITH TIME ZONE')).toEqual({
      action: 'widen',
      type: 'TIMESTAMP WITH TIME ZONE',
    });
    expect(reconcile('JSON', 'BIGINT[]')).toEqual({ action: 'keep' });
    expect(reconcile('DOUBLE', 'BIGINT')).toEqual({ action: 'lossy' });
    expect(reconcile('UUID', 'DATE')).toEqual({ action: 'lossy' });
  });

  it('a dataset stored as DOUBLE before exact types syncs on, and the log says to refresh all data', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    let batch = 1;
    const at = (day: number) => `2024-01-0${day}T00:00:00Z`;
    const source = registerTestSource(t, 'airbyte', async function* (): AsyncIterable<ReadItem> {
      yield { kind: 'records', records: [{ id: batch, label: `batch ${batch}`, seen_at: at(batch) }] };
    });
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Old items',
        schemaName: 'old_items',
        configuration: { host: 'h', password: 'p' },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, {
      Items: { syncType: 'Incremental', dataIngestionType: 'Append' },
    });
    // Discovered without formats (as before they existed): id is stored as DOUBLE.
    expectCompleted(await syncNow(t, cookie, integration.id));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    const table = ok(
      await api<{ columns: { columnKey: string; type: string }[] }>(
        t,
        cookie,
        'GET',
        `/api/tables/IntegrationDataset/${detail.datasets[0]!.id}`,
      ),
    );
    expect(table.columns.find((c) => c.columnKey === 'id')?.type).toBe('Number');

    // Refresh datasets: the connector now says int64.
    const withFormats = {
      ...ITEMS,
      properties: ITEMS.properties.map((p) => (p.name === 'id' ? { ...p, format: 'int64' } : p)),
    };
    source.connector.discover = () => Promise.resolve([withFormats]);
    ok(await api(t, cookie, 'POST', `/api/integrations/${integration.id}/refresh-dataset`));
    await t.services.integrations.idle();
    batch = 2;
    t.clock.advance(60_000);
    const run = await syncNow(t, cookie, integration.id);
    expectCompleted(run);
    expect(run.logs).toContain(
      '[WARN] Items: Column id is stored as DOUBLE but the source now gives BIGINT. Refresh all data once to store the column as the source gives it.',
    );
    expect((await datasetRows(t, cookie, detail.datasets[0]!.id)).map((r) => [r.id, r.label])).toEqual([
      [1, 'batch 1'],
      [2, 'batch 2'],
    ]);
    const types = await t.deps.warehouse.forAccount(team.accountId).all({
      sql: "SELECT data_type FROM information_schema.columns WHERE table_schema = 'old_items' AND column_name = 'id'",
      parameters: [],
    });
    expect(types).toEqual([{ data_type: 'DOUBLE' }]);

    // A full refresh stores the source's type.
    const full = ok(
      await api<{ id: string }>(t, cookie, 'POST', `/api/integrations/${integration.id}/trigger-full-refresh`, {
        datasets: ['Items'],
      }),
    );
    await t.services.integrations.idle();
    expect(full.id).toBeTruthy();
    const after = await t.deps.warehouse.forAccount(team.accountId).all({
      sql: "SELECT data_type FROM information_schema.columns WHERE table_schema = 'old_items' AND column_name = 'id'",
      parameters: [],
    });
    expect(after).toEqual([{ data_type: 'BIGINT' }]);
  });
});

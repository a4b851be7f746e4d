import { describe, expect, it } from 'vitest';
import type { DiscoveredDataset, ReadItem } from '../../../src/server/modules/integrations/connectors/types';
import { LIMITS } from '../../../src/shared/limits';
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
import { customDefinition, registerTestSource } from './test-connector';

/** A dataset 'Wide' with an id and `count` text properties named `<prefix>0`, `<prefix>1`, ... */
function wide(count: number, prefix: string): DiscoveredDataset {
  return {
    name: 'Wide',
    properties: [
      { name: 'id', type: 'Number', isPrimaryKey: true, isCursor: false },
      ...Array.from({ length: count }, (_, i) => ({
        name: `${prefix}${i}`,
        type: 'Text' as const,
        isPrimaryKey: false,
        isCursor: false,
      })),
    ],
    supportedSyncTypes: ['FullRefresh'],
    supportedIngestionTypes: ['Overwrite', 'Append'],
    primaryKey: ['id'],
    cursorField: null,
  };
}

const recordOf = (dataset: DiscoveredDataset, id: number) =>
  Object.fromEntries(dataset.properties.map((p) => [p.name, p.name === 'id' ? id : `${p.name}-${id}`]));

describe('syncs never take a dataset past the column limit', () => {
  it('refuses more selected properties than the limit, and an append that would add columns past it', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await customDefinition(t);
    const catalog: DiscoveredDataset[] = [wide(300, 'a')];
    registerTestSource(
      t,
      'airbyte',
      async function* (): AsyncIterable<ReadItem> {
        yield { kind: 'records', records: [recordOf(catalog[0]!, 1), recordOf(catalog[0]!, 2)] };
      },
      catalog,
    );
    const integration = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Wide source',
        schemaName: 'wide_source',
        configuration: { host: 'h', password: 'p' },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, { Wide: { syncType: 'FullRefresh', dataIngestionType: 'Append' } });
    expectCompleted(await syncNow(t, cookie, integration.id));
    const datasetId = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`)).datasets[0]!
      .id;
    const table = async () => ({
      rows: await datasetRows(t, cookie, datasetId),
      columns: ok(await api<{ columns: unknown[] }>(t, cookie, 'GET', `/api/tables/IntegrationDataset/${datasetId}`))
        .columns.length,
    });
    const before = await table();
    expect(before.rows).toHaveLength(2);
    expect(before.columns).toBe(301);

    // The source now offers 300 other properties: appended, the table would have 601 columns.
    catalog[0] = wide(300, 'b');
    ok(await api(t, cookie, 'POST', `/api/integrations/${integration.id}/refresh-dataset`, { id: integration.id }));
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, {
      Wide: { selectedProperties: catalog[0].properties.map((p) => p.name) },
    });
    t.clock.advance(60_000);
    const appended = await syncNow(t, cookie, integration.id);
    expect(appended.status).toBe('Failed');
    expect(appended.logs.join('\n')).toContain(
      `The sync would add 300 columns to the 301 of wide; a dataset can have at most ${LIMITS.maxColumns} columns.`,
    );
    expect(await table()).toEqual(before);

    // More properties than the limit are refused before anything is read.
    catalog[0] = wide(LIMITS.maxColumns + 1, 'c');
    ok(await api(t, cookie, 'POST', `/api/integrations/${integration.id}/refresh-dataset`, { id: integration.id }));
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, integration.id, {
      Wide: { selectedProperties: catalog[0].properties.map((p) => p.name), dataIngestionType: 'Overwrite' },
    });
    t.clock.advance(60_000);
    const tooMany = await syncNow(t, cookie, integration.id);
    expect(tooMany.status).toBe('Failed');
    expect(tooMany.logs.join('\n')).toContain(
      `The dataset has 502 properties, but a dataset can have at most ${LIMITS.maxColumns} columns.`,
    );
    expect(await table()).toEqual(before);
  });
});

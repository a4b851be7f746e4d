import { describe, expect, it } from 'vitest';
import { appWithTeam } from '../static-tables/helpers';
import { addColumn, api as modelApi, createModel, named, versionRows } from '../models/helpers';
import { api, expectCompleted, ok, sampleIntegration, selectDatasets, syncNow, type Integration } from './helpers';

describe('integration datasets as model sources', () => {
  it('offers synced datasets in the column picker and reads their rows in a model', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    await selectDatasets(t, cookie, integration.id, {
      products: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    expectCompleted(await syncNow(t, cookie, integration.id));
    const products = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`)).datasets.find(
      (d) => d.name === 'products',
    )!;

    const model = await createModel(t, cookie, 'Catalogue');
    const options = ok(
      await modelApi<{ sourceId: string; sourceType: string; groupName: string }[]>(
        t,
        cookie,
        'GET',
        `/api/models/${model.id}/sources`,
      ),
    );
    expect(options).toContainEqual(
      expect.objectContaining({ sourceId: products.id, sourceType: 'IntegrationDataset', groupName: 'Shop' }),
    );
    const source = (columnKey: string) => ({ sourceId: products.id, sourceType: 'IntegrationDataset', columnKey });
    await addColumn(t, cookie, model.id, { displayName: 'Product', sourceColumn: source('name') });
    const withPrice = await addColumn(t, cookie, model.id, {
      displayName: 'Price',
      sourceColumn: source('unit_price'),
    });
    expect(withPrice.errors.hasBreakingErrors).toBe(false);
    const rows = named(withPrice, await versionRows(t, cookie, withPrice.versionId));
    expect(rows).toHaveLength(50);
    expect(rows[0]).toEqual({ Product: expect.any(String), Price: expect.any(Number) });
  });
});

import { describe, expect, it } from 'vitest';
import type { Model, ModelSourceOption, ModelVersionSummary } from '../../../src/shared/models';
import { expectError } from '../helpers';
import { appWithTeam, appWithTwoTeams, ok, query, trpcOk } from '../static-tables/helpers';
import { api, createModel, joinedModel, makeShop, modelKey, named, versionRows } from './helpers';

describe('model calls', () => {
  it('renames, reorders, converts, formats, filters and sorts through the draft', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const model = await joinedModel(t, cookie, shop);
    const renamed = ok(await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}`, { name: '  Revenue  ' }));
    expect(renamed.name).toBe('Revenue');
    expectError(await api(t, cookie, 'PUT', `/api/models/${model.id}`, { name: '   ' }), 400);

    const keys = model.columns.map((c) => c.columnKey);
    const reordered = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/columns`, { columnKeys: [...keys].reverse() }),
    );
    expect(reordered.columns.map((c) => c.displayName)).toEqual(['Doubled', 'Customer', 'Amount', 'Order']);
    expectError(await api(t, cookie, 'PUT', `/api/models/${model.id}/columns`, { columnKeys: keys.slice(1) }), 400);

    const order = modelKey(model, 'Order');
    const converted = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/columns/${order}`, {
        castTo: 'Text',
        format: { style: 'Percent', decimalPlaces: 1 },
      }),
    );
    const column = converted.columns.find((c) => c.columnKey === order)!;
    expect(column.type).toBe('Text');
    expect(column.format).toMatchObject({ style: 'Percent', decimalPlaces: 1, thousandSeparator: true });
    expectError(await api(t, cookie, 'PUT', `/api/models/${model.id}/columns/nope`, { displayName: 'X' }), 404);

    const amount = modelKey(model, 'Amount');
    ok(
      await api(t, cookie, 'PUT', `/api/models/${model.id}/filter_groups`, {
        filterGroups: [{ filters: [{ columnKey: amount, operator: 'GreaterThan', value: 5 }] }],
      }),
    );
    const sorted = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/sort`, {
        sort: [{ columnKey: amount, direction: 'Descending' }],
      }),
    );
    expect(sorted.viewSql).toContain('WHERE');
    const rows = named(sorted, await versionRows(t, cookie, sorted.versionId));
    expect(rows.map((r) => r.Amount)).toEqual([100, 25.5, 10]);
    expectError(
      await api(t, cookie, 'PUT', `/api/models/${model.id}/sort`, { sort: [{ columnKey: amount, direction: 'Up' }] }),
      400,
    );
  });

  it('lists versions, reads one version, functions and source options', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const model = await joinedModel(t, cookie, shop);
    const versions = ok(await api<ModelVersionSummary[]>(t, cookie, 'GET', `/api/models/${model.id}/versions`));
    expect(versions.map((v) => [v.versionNumber, v.status])).toEqual([[1, 'Draft']]);
    const version = ok(await api<Model>(t, cookie, 'GET', `/api/models/versions/${versions[0]!.versionId}`));
    expect(version.columns).toHaveLength(4);
    const functions = ok(await api<{ name: string }[]>(t, cookie, 'GET', '/api/models/functions'));
    expect(functions.map((f) => f.name)).toEqual(expect.arrayContaining(['IF', 'ROUND', 'DATE_TRUNC', 'COALESCE']));
    const sources = ok(await api<ModelSourceOption[]>(t, cookie, 'GET', `/api/models/${model.id}/sources`));
    expect(sources.map((s) => s.name)).toEqual(['Customers', 'Orders']);
    const viaTrpc = trpcOk(await query<Model>(t, 'models.get', { id: model.id, draft: true }, cookie));
    expect(viaTrpc.versionId).toBe(model.versionId);
    const tables = ok(await api<{ type: string }[]>(t, cookie, 'GET', '/api/tables?types=ModelVersion'));
    expect(tables).toEqual([]);
    await api(t, cookie, 'POST', `/api/models/${model.id}/publish`);
    const published = ok(
      await api<{ type: string; name: string }[]>(t, cookie, 'GET', '/api/tables?types=ModelVersion'),
    );
    expect(published.map((p) => [p.type, p.name])).toEqual([['ModelVersion', 'Sales']]);
  });

  it('answers 404 for every call on another account’s model', async () => {
    const { t, a, b } = await appWithTwoTeams();
    const model = await createModel(t, a.owner.cookie);
    const cookie = b.owner.cookie;
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', `/api/models/${model.id}`],
      ['PUT', `/api/models/${model.id}`, { name: 'x' }],
      ['DELETE', `/api/models/${model.id}`],
      ['GET', `/api/models/${model.id}/versions`],
      ['GET', `/api/models/versions/${model.versionId}`],
      ['POST', `/api/models/${model.id}/columns`, { displayName: 'x', function: '1' }],
      ['PUT', `/api/models/${model.id}/joins`, { joins: [] }],
      ['PUT', `/api/models/${model.id}/pivots`, { pivots: [] }],
      ['PUT', `/api/models/${model.id}/filter_groups`, { filterGroups: [] }],
      ['PUT', `/api/models/${model.id}/sort`, { sort: [] }],
      ['POST', `/api/models/${model.id}/publish`],
      ['POST', `/api/models/${model.id}/revert`],
      ['POST', `/api/models/${model.id}/duplicate`, {}],
      ['POST', `/api/models/${model.versionId}/validate-function`, { function: '1' }],
      ['PUT', `/api/models/${model.versionId}/set-active`],
      ['POST', `/api/tables/ModelVersion/${model.versionId}/data/infinite-scroll`, {}],
      ['GET', `/api/models/${model.id}/export/pivot?pivotKey=x`],
    ];
    for (const [method, url, body] of calls) {
      const res = await api(t, cookie, method, url, body);
      expect([url, res.status]).toEqual([url, 404]);
    }
    ok(await api(t, a.owner.cookie, 'GET', `/api/models/${model.id}`));
  });
});

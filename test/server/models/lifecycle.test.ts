import { describe, expect, it } from 'vitest';
import type { Model, ModelVersionSummary } from '../../../src/shared/models';
import type { Paged, TableSummary } from '../../../src/shared/tables';
import { expectError } from '../helpers';
import { appWithTeam, appWithTwoTeams, ok } from '../static-tables/helpers';
import { addColumn, api, createModel, joinedModel, makeShop, modelKey, named, versionRows } from './helpers';

describe('model lifecycle', () => {
  it('builds a joined model with a function column, publishes it and reads its rows', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const draft = await joinedModel(t, cookie, shop);
    expect(draft.status).toBe('Draft');
    expect(draft.hasUnpublishedChanges).toBe(true);
    expect(draft.errors.hasBreakingErrors).toBe(false);
    expect(draft.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['Order', 'Number'],
      ['Amount', 'Number'],
      ['Customer', 'Text'],
      ['Doubled', 'Number'],
    ]);
    expect(draft.columns.find((c) => c.displayName === 'Doubled')?.dependentColumnKeys).toEqual([
      modelKey(draft, 'Amount'),
    ]);
    expect(draft.viewSql).toMatch(/LEFT (OUTER )?JOIN/);

    const rows = named(
      draft,
      await versionRows(t, cookie, draft.versionId, { sorting: [{ columnKey: modelKey(draft, 'Order') }] }),
    );
    expect(rows).toEqual([
      { Order: 1, Amount: 25.5, Customer: 'Ada', Doubled: 51 },
      { Order: 2, Amount: 10, Customer: 'Bob', Doubled: 20 },
      { Order: 3, Amount: 4.5, Customer: 'Ada', Doubled: 9 },
      { Order: 4, Amount: 100, Customer: null, Doubled: 200 },
    ]);

    const published = ok(await api<Model>(t, cookie, 'POST', `/api/models/${draft.id}/publish`));
    expect(published.status).toBe('Active');
    expect(published.hasUnpublishedChanges).toBe(false);
    expect(published.versionNumber).toBe(1);
    const fromView = named(
      published,
      await versionRows(t, cookie, published.versionId, {
        sorting: [{ columnKey: modelKey(draft, 'Order'), direction: 'Descending' }],
      }),
    );
    expect(fromView.map((r) => r.Order)).toEqual([4, 3, 2, 1]);
    const count = ok(
      await api<{ totalCount: number }>(
        t,
        cookie,
        'POST',
        `/api/tables/ModelVersion/${published.versionId}/data/count`,
        {},
      ),
    );
    expect(count.totalCount).toBe(4);
  });

  it('keeps edits in a draft until publish, reverts it, and switches the active version', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const first = await joinedModel(t, cookie, shop);
    ok(await api(t, cookie, 'POST', `/api/models/${first.id}/publish`));

    // An edit opens draft v2 from the active version.
    const renamed = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${first.id}/columns/${modelKey(first, 'Customer')}`, {
        displayName: 'Buyer',
      }),
    );
    expect(renamed.status).toBe('Draft');
    expect(renamed.versionNumber).toBe(2);
    const active = ok(await api<Model>(t, cookie, 'GET', `/api/models/${first.id}`));
    expect(active.columns.map((c) => c.displayName)).toContain('Customer');
    const withDraft = ok(await api<Model>(t, cookie, 'GET', `/api/models/${first.id}?draft=true`));
    expect(withDraft.columns.map((c) => c.displayName)).toContain('Buyer');

    const reverted = ok(await api<Model>(t, cookie, 'POST', `/api/models/${first.id}/revert`));
    expect(reverted.hasUnpublishedChanges).toBe(false);
    expect(reverted.columns.map((c) => c.displayName)).toContain('Customer');
    expectError(await api(t, cookie, 'POST', `/api/models/${first.id}/revert`), 400);

    await api(t, cookie, 'PUT', `/api/models/${first.id}/columns/${modelKey(first, 'Customer')}`, {
      displayName: 'Buyer',
    });
    const second = ok(await api<Model>(t, cookie, 'POST', `/api/models/${first.id}/publish`));
    // The discarded draft's number is free again.
    expect(second.versionNumber).toBe(2);
    const versions = ok(await api<ModelVersionSummary[]>(t, cookie, 'GET', `/api/models/${first.id}/versions`));
    expect(versions.map((v) => [v.versionNumber, v.status])).toEqual([
      [2, 'Active'],
      [1, 'Inactive'],
    ]);

    const back = ok(await api<Model>(t, cookie, 'PUT', `/api/models/${versions[1]!.versionId}/set-active`));
    expect(back.versionNumber).toBe(1);
    expect(back.columns.map((c) => c.displayName)).toContain('Customer');
  });

  it('duplicates from the active version with a default or trimmed name', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const model = await joinedModel(t, cookie, shop);
    const copy = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/duplicate`, {}), 201);
    expect(copy.name).toBe('Sales - Copy');
    expect(copy.columns).toHaveLength(4);
    const named = ok(
      await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/duplicate`, { name: '  Other  ' }),
      201,
    );
    expect(named.name).toBe('Other');
    expectError(await api(t, cookie, 'POST', `/api/models/${model.id}/duplicate`, { name: '   ' }), 400);
    const list = ok(await api<{ name: string }[]>(t, cookie, 'GET', '/api/models'));
    expect(list.map((m) => m.name)).toEqual(['Other', 'Sales', 'Sales - Copy']);
  });

  it('refuses a broken formula, reports removed columns as breaking, and blocks publish', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const model = await joinedModel(t, cookie, shop);
    const bad = await api<{ message: string }>(t, cookie, 'POST', `/api/models/${model.id}/columns`, {
      displayName: 'Bad',
      function: 'ROUND([nope]',
    });
    expect(expectError(bad, 400)).toMatch(/\)|Unknown column|position/);
    const check = ok(
      await api<{ valid: boolean; start: number | null }>(
        t,
        cookie,
        'POST',
        `/api/models/${model.versionId}/validate-function`,
        {
          function: 'UPPER(1)',
        },
      ),
    );
    expect(check.valid).toBe(false);
    expect(check.start).toBe(6);

    const amount = modelKey(model, 'Amount');
    const without = ok(await api<Model>(t, cookie, 'DELETE', `/api/models/${model.id}/columns/${amount}`));
    expect(without.errors.hasBreakingErrors).toBe(true);
    expect(without.errors.texts[0]).toContain(
      'A column has been removed from the model. Please select another column.',
    );
    expect(without.columns.find((c) => c.displayName === 'Doubled')?.error?.missingColumnKeys).toEqual([amount]);
    expect(expectError(await api(t, cookie, 'POST', `/api/models/${model.id}/publish`), 400)).toContain(
      'A column has been removed',
    );
  });

  it('refuses a model reading itself through another model', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const a = await joinedModel(t, cookie, shop);
    const aActive = ok(await api<Model>(t, cookie, 'POST', `/api/models/${a.id}/publish`));
    const b = await createModel(t, cookie, 'B');
    await api(t, cookie, 'POST', `/api/models/${b.id}/columns`, {
      displayName: 'Order',
      sourceColumn: { sourceId: aActive.versionId, sourceType: 'ModelVersion', columnKey: modelKey(aActive, 'Order') },
    });
    const bActive = ok(await api<Model>(t, cookie, 'POST', `/api/models/${b.id}/publish`));
    const cycle = await api(t, cookie, 'POST', `/api/models/${a.id}/columns`, {
      displayName: 'Loop',
      sourceColumn: { sourceId: bActive.versionId, sourceType: 'ModelVersion', columnKey: modelKey(bActive, 'Order') },
    });
    expect(expectError(cycle, 400)).toContain('cannot read its own data');
    expect(expectError(await api(t, cookie, 'DELETE', `/api/models/${a.id}`), 409)).toContain('used by B');
  });

  it('reads a published version kept between requests with its model as it is now: renamed, set aside, deleted, or in another account', async () => {
    const { t, a, b } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const draft = await joinedModel(t, cookie, await makeShop(t, cookie));
    const first = ok(await api<Model>(t, cookie, 'POST', `/api/models/${draft.id}/publish`));
    const table = `/api/tables/ModelVersion/${first.versionId}`;
    const page = (who: string) => api<Paged<unknown>>(t, who, 'POST', `${table}/data/infinite-scroll`, {});
    expect(ok(await page(cookie)).count).toBe(4);
    expect(ok(await page(cookie)).count).toBe(4);
    expectError(await page(b.owner.cookie), 404);
    expectError(await api(t, b.owner.cookie, 'GET', table), 404);

    ok(await api(t, cookie, 'PUT', `/api/models/${draft.id}`, { name: 'Renamed' }));
    expect(ok(await page(cookie)).count).toBe(4);
    expect(ok(await api<TableSummary>(t, cookie, 'GET', table))).toMatchObject({ name: 'Renamed', status: 'Active' });

    await addColumn(t, cookie, draft.id, { displayName: 'Tripled', function: `[${modelKey(draft, 'Amount')}] * 3` });
    const second = ok(await api<Model>(t, cookie, 'POST', `/api/models/${draft.id}/publish`));
    expect(second.versionId).not.toBe(first.versionId);
    const setAside = ok(await api<TableSummary>(t, cookie, 'GET', table));
    expect(setAside.status).not.toBe('Active');
    expect(setAside.columns.map((c) => c.displayName)).toEqual(['Order', 'Amount', 'Customer', 'Doubled']);

    ok(await api(t, cookie, 'DELETE', `/api/models/${draft.id}`), 204);
    expectError(await page(cookie), 404);
    expectError(await api(t, cookie, 'GET', table), 404);
  });

  it('answers 404 for another account and refuses read_only members', async () => {
    const { t, team } = await appWithTeam();
    const model = await createModel(t, team.owner.cookie);
    const other = await createModel(t, team.admin.cookie, 'Mine');
    expect(other.id).not.toBe(model.id);
    expectError(await api(t, team.readOnly.cookie, 'POST', '/api/models', { name: 'X' }), 403);
    expectError(await api(t, team.readOnly.cookie, 'PUT', `/api/models/${model.id}`, { name: 'X' }), 403);
    ok(await api(t, team.readOnly.cookie, 'GET', `/api/models/${model.id}`));
  });
});

describe('model pivots and exports', () => {
  it('serves a pivot with totals and % of Row, and exports it as CSV and XLSX', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const model = await joinedModel(t, cookie, shop);
    const customer = modelKey(model, 'Customer');
    const amount = modelKey(model, 'Amount');
    const order = modelKey(model, 'Order');
    const saved = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, {
        pivots: [
          {
            key: 'pv01',
            name: 'Pivot table 1',
            rows: [{ column: customer }],
            columns: [],
            values: [
              { column: amount, function: 'Sum' },
              { column: order, function: 'Count' },
            ],
            filters: [],
            showRowTotals: true,
            showColumnTotals: true,
          },
        ],
      }),
    );
    expect(saved.pivots).toHaveLength(1);
    const page = ok(
      await api<{
        rows: { cells: Record<string, unknown>; isTotal: boolean }[];
        hasMore: boolean;
        layout: { columns: { key: string; label: string }[] };
      }>(t, cookie, 'POST', `/api/tables/ModelVersion/${saved.versionId}/resources/pv01/Pivot/data/infinite-scroll`, {
        page: 1,
        pageSize: 200,
      }),
    );
    expect(page.hasMore).toBe(false);
    const [rowKey, sumKey, countKey] = page.layout.columns.map((c) => c.key);
    const table = page.rows.map((r) => [r.cells[rowKey!], r.cells[sumKey!], r.cells[countKey!], r.isTotal]);
    expect(table).toEqual([
      ['Ada', 30, 2, false],
      ['Bob', 10, 1, false],
      [null, 100, 1, false],
      [null, 140, 4, true],
    ]);

    const csv = await api<string>(t, cookie, 'GET', `/api/models/${model.id}/export/pivot?pivotKey=pv01&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toContain('.csv');
    expect(csv.body.split('\r\n')[1]).toBe('Ada,30,2');
    expect(csv.body).toContain('Total,140,4');
    const xlsx = await api<string>(t, cookie, 'GET', `/api/models/${model.id}/export/pivot?pivotKey=pv01&format=xlsx`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.raw.rawPayload.subarray(0, 2).toString()).toBe('PK');

    // A pivot field whose column is removed answers the model's message, not an engine error.
    await api(t, cookie, 'DELETE', `/api/models/${model.id}/columns/${order}`);
    const broken = await api(
      t,
      cookie,
      'POST',
      `/api/tables/ModelVersion/${saved.versionId}/resources/pv01/Pivot/data/infinite-scroll`,
      { page: 1 },
    );
    expect(expectError(broken, 400)).toContain('A column has been removed from the model');

    const data = await api<string>(t, cookie, 'GET', `/api/models/versions/${saved.versionId}/export?format=csv`);
    expect(data.status).toBe(200);
    expect(data.body.split('\n')[0]).toContain('Customer');
  });
});

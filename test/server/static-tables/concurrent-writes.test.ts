import { describe, expect, it } from 'vitest';
import { call, makeApp, signIn, type CallResult } from '../helpers';
import { expectCompleted, sampleIntegration, selectDatasets, syncNow } from '../integrations/helpers';
import { api, createModel, joinedModel, makeShop } from '../models/helpers';
import { createTable, getTable, rowsByName, uploadCsv, warehouseTables } from './helpers';

/**
 * Writes of one account arrive together from several tabs and colleagues: every one must land, none
 * may answer 500 because another write of the same account was open while it made its change
 * durable (DuckDB refuses a CHECKPOINT beside another write transaction), and afterwards the
 * metadata and the warehouse agree.
 */
describe('concurrent writes in one account', () => {
  it('cell edits, imports, publishes, new tables and deletes at once all succeed and agree', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const edited = await createTable(t, cookie, {
      name: 'Edited',
      columns: [{ displayName: 'A', columnKey: 'a' }],
      rows: [['x'], ['y']],
    });
    const imported = await createTable(t, cookie, { name: 'Imported' });
    const shop = await makeShop(t, cookie);
    const model = await joinedModel(t, cookie, shop);
    const failures: string[] = [];
    const check =
      (label: string) =>
      <T>(res: CallResult<T>): CallResult<T> => {
        if (res.status >= 300) failures.push(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
        return res;
      };
    const csvOf = (round: number) =>
      `n,label\n${Array.from({ length: 50 }, (_, i) => `${round * 100 + i},row ${i}`).join('\n')}\n`;

    const lastEdit: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const work: Promise<unknown>[] = [
        uploadCsv(t, cookie, imported.id, csvOf(round)).then(check('import')),
        api(t, cookie, 'POST', `/api/models/${model.id}/columns`, {
          displayName: `Times ${round}`,
          function: `${round} * 2`,
        })
          .then(check('add column'))
          .then(() => api(t, cookie, 'POST', `/api/models/${model.id}/publish`))
          .then(check('publish')),
      ];
      for (let i = 0; i < 3; i += 1) {
        const value = `r${round}-${i}`;
        work.push(
          call(t.server, 'POST', `/api/static-tables/${edited.id}/changes`, {
            cookie,
            body: { changes: [{ kind: 'cells', edits: [{ rowId: 1, columnKey: 'a', value }] }] },
          })
            .then(check('edit'))
            .then(() => lastEdit.push(value)),
        );
        work.push(
          createModel(t, cookie, `Model ${round}-${i}`).then((m) =>
            api(t, cookie, 'DELETE', `/api/models/${m.id}`).then(check('delete model')),
          ),
        );
        work.push(
          call<{ id: string }>(t.server, 'POST', '/api/static-tables', {
            cookie,
            body: { name: `New ${round}-${i}`, columns: [{ displayName: 'B' }] },
          })
            .then(check('create'))
            .then((res) =>
              res.status < 300
                ? call(t.server, 'DELETE', `/api/static-tables/${res.body.id}`, { cookie }).then(check('delete'))
                : res,
            ),
        );
      }
      await Promise.all(work);
    }
    expect(failures).toEqual([]);

    // Both stores agree: the last import's rows, one of the edits, and exactly the tables still listed.
    const importedNow = await getTable(t, cookie, imported.id);
    expect(importedNow.rowCount).toBe(50);
    const rows = await rowsByName(t, cookie, imported.id);
    expect(rows.map((r) => Number(r.n)).sort((a, b) => a - b)[0]).toBe(500);
    const editedRows = await rowsByName(t, cookie, edited.id);
    expect(lastEdit).toContain(editedRows[0]?.A);
    const listed = await call<{ data: { id: string }[] }>(t.server, 'GET', '/api/static-tables?page=1&pageSize=100', {
      cookie,
    });
    expect(listed.body.data.map((d) => d.id).sort()).toHaveLength(4);
    expect((await warehouseTables(t, cookie)).length).toBe(4);
    await t.close();
  }, 180_000);

  it('a sync writing its datasets beside edits and imports: every write lands, the sync completes', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const edited = await createTable(t, cookie, {
      name: 'Edited',
      columns: [{ displayName: 'A', columnKey: 'a' }],
      rows: [['x']],
    });
    const imported = await createTable(t, cookie, { name: 'Imported' });
    const integration = await sampleIntegration(t, cookie);
    await selectDatasets(t, cookie, integration.id, {
      customers: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
      orders: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
      products: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const failures: string[] = [];
    let syncing = true;
    const sync = syncNow(t, cookie, integration.id).finally(() => (syncing = false));
    let writes = 0;
    while (syncing || writes < 6) {
      const results = await Promise.all([
        call(t.server, 'POST', `/api/static-tables/${edited.id}/changes`, {
          cookie,
          body: { changes: [{ kind: 'cells', edits: [{ rowId: 1, columnKey: 'a', value: `v${writes}` }] }] },
        }),
        uploadCsv(t, cookie, imported.id, `n\n${writes}\n`),
      ]);
      for (const res of results) if (res.status >= 300) failures.push(`${res.status} ${JSON.stringify(res.body)}`);
      writes += 1;
    }
    const run = await sync;
    expectCompleted(run);
    expect(failures).toEqual([]);
    expect((await rowsByName(t, cookie, edited.id))[0]?.A).toBe(`v${writes - 1}`);
    expect((await rowsByName(t, cookie, imported.id)).map((r) => Number(r.n))).toEqual([writes - 1]);
    await t.close();
  }, 180_000);
});

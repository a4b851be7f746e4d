import { describe, expect, it } from 'vitest';
import type { Model } from '../../../src/shared/models';
import { qualified } from '../../../src/server/modules/static-tables/physical';
import { appWithTeam, keyOf, ok, tableFromCsv } from '../static-tables/helpers';
import { addColumn, api, createModel, rawColumn, versionRows } from './helpers';

/**
 * DuckDB does not keep insertion order through a parallel hash join, so unsorted model pages need
 * the engine's total order (every column as the tie-break): with several row groups and two
 * threads, the pages must join up to exactly one full read, every time.
 */
describe('unsorted model pages', () => {
  it('page through a large join in a stable order', { timeout: 120_000 }, async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const facts = await tableFromCsv(t, cookie, 'id,k\n1,1\n', 'Facts');
    const dims = await tableFromCsv(t, cookie, 'k,label\n1,a\n', 'Dims');
    const warehouse = t.deps.warehouse.forAccount(team.accountId);
    const [id, k, dk, label] = [keyOf(facts, 'id'), keyOf(facts, 'k'), keyOf(dims, 'k'), keyOf(dims, 'label')];
    const rows = 300_000;
    await warehouse.run(
      `CREATE OR REPLACE TABLE ${qualified(facts.id)} AS SELECT range + 1 AS _row_id, ` +
        `(range + 1)::DOUBLE AS "${id}", ((range * 7919) % 5000)::DOUBLE AS "${k}" FROM range(${rows})`,
    );
    await warehouse.run(
      `CREATE OR REPLACE TABLE ${qualified(dims.id)} AS SELECT range + 1 AS _row_id, ` +
        `range::DOUBLE AS "${dk}", 'label ' || range AS "${label}" FROM range(5000)`,
    );
    const model = await createModel(t, cookie);
    await addColumn(t, cookie, model.id, rawColumn(facts, 'id', 'Id'));
    await addColumn(t, cookie, model.id, rawColumn(dims, 'label', 'Label'));
    const joined = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/joins`, {
        joins: [
          {
            leftTable: { sourceId: facts.id, sourceType: 'StaticTable' },
            rightTable: { sourceId: dims.id, sourceType: 'StaticTable' },
            joinType: 'Inner',
            joinGroups: [{ conditions: [{ leftColumnKey: k, operator: 'Equals', rightColumnKey: dk }] }],
          },
        ],
      }),
    );
    const idKey = joined.columns[0]!.columnKey;
    const read = async (page: number, pageSize: number) =>
      (await versionRows(t, cookie, joined.versionId, { page, pageSize })).map((r) => r[idKey]);

    // With no sort asked for, the tie-break orders by every column, Id first: page p holds ids
    // (p-1)*1000+1 .. p*1000, whatever order the join produced them in.
    for (const page of [1, 2, 150, 300]) {
      const expected = Array.from({ length: 1_000 }, (_, i) => (page - 1) * 1_000 + i + 1);
      expect(await read(page, 1_000)).toEqual(expected);
      expect(await read(page, 1_000)).toEqual(expected);
    }
  });
});

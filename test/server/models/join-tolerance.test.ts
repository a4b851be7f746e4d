/**
 * A join within a tolerance between whole-number columns whose values lie 2^63 apart: DuckDB's
 * BIGINT subtraction overflows there, which once failed every read of the model with a 400.
 */
import { describe, expect, it } from 'vitest';
import type { Model } from '../../../src/shared/models';
import { makeApp, signIn } from '../helpers';
import { keyOf, ok, tableFromCsv } from '../static-tables/helpers';
import { addColumn, api, createModel, rawColumn, versionRows } from './helpers';

describe('join tolerance', () => {
  it('matches BIGINT keys within it, and keys 2^63 apart are simply far apart', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const left = await tableFromCsv(t, cookie, 'k,name\n-9223372036854775808,min\n9007199254740993,near\n', 'Left');
    const right = await tableFromCsv(t, cookie, 'k,label\n9223372036854775807,max\n9007199254740994,next\n', 'Right');
    const created = await createModel(t, cookie, 'Far apart');
    await addColumn(t, cookie, created.id, rawColumn(left, 'name', 'Name'));
    await addColumn(t, cookie, created.id, rawColumn(right, 'label', 'Label'));
    const joined = (operator: 'Equals' | 'NotEquals') =>
      api<Model>(t, cookie, 'PUT', `/api/models/${created.id}/joins`, {
        joins: [
          {
            leftTable: { sourceId: left.id, sourceType: 'StaticTable' },
            rightTable: { sourceId: right.id, sourceType: 'StaticTable' },
            joinType: 'Inner',
            joinGroups: [
              {
                conditions: [
                  {
                    leftColumnKey: keyOf(left, 'k'),
                    operator,
                    rightColumnKey: keyOf(right, 'k'),
                    format: { tolerance: 1 },
                  },
                ],
              },
            ],
          },
        ],
      });
    const pairs = async (model: Model) =>
      (await versionRows(t, cookie, model.versionId))
        .map((r) => `${String(r[model.columns[0]!.columnKey])}-${String(r[model.columns[1]!.columnKey])}`)
        .sort();
    expect(await pairs(ok(await joined('Equals')))).toEqual(['near-next']);
    expect(await pairs(ok(await joined('NotEquals')))).toEqual(['min-max', 'min-next', 'near-max']);
  });
});

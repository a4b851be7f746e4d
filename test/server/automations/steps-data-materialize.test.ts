import { describe, expect, it } from 'vitest';
import { appWithTeam } from '../static-tables/helpers';
import { configured, definitionAndRun, failureOf, kindOf, runEnv, syncedSample } from './steps-data-env';

const materialize = kindOf('Materialize');

describe('Materialize step', () => {
  it('writes a filtered dataset into a new static table, replaces or appends, and never appends twice for one attempt', async () => {
    const { t, team } = await appWithTeam();
    const { orders } = await syncedSample(t, team.owner.cookie);
    const run = await definitionAndRun(t, team.accountId, team.owner.userId);
    const { env, logs } = await runEnv(t, team.accountId, team.owner.userId, run);
    const filters = [{ columnKey: 'quantity', operator: 'GreaterThan' as const, value: 2 }];
    const expected = (
      await t.services.tables.count(env.ctx, 'IntegrationDataset', orders.split(':')[1]!, {
        filterGroups: [{ filters: filters.map((f) => ({ ...f, value2: null, conditionOperator: 'Or' as const })) }],
      })
    ).totalCount;
    expect(expected).toBeGreaterThan(0);

    const step = configured('Materialize', { source: orders, filters, target: 'Big orders', mode: 'Replace' });
    expect(materialize.validate(step)).toBeNull();
    expect(materialize.validate(configured('Materialize', { source: orders, mode: 'Replace' }))).toBe(
      'Into table is required: choose a table or name a new one.',
    );
    const preview = await materialize.preview(env, step);
    expect(preview.summary).toBe(
      `Would create the table Big orders with ${expected.toLocaleString('en-US')} row(s) of Shop › orders.`,
    );
    expect(await t.deps.db.selectFrom('static_tables').select('id').execute()).toEqual([]); // nothing written

    const output = await materialize.run(env, step);
    expect(output).toMatchObject({ tableName: 'Big orders', rowCount: expected });
    const tableId = output.tableId as string;
    const table = await t.services.tables.get(env.ctx, 'StaticTable', tableId);
    expect(table.columns.map((c) => c.displayName)).toContain('quantity');
    expect((await t.services.tables.count(env.ctx, 'StaticTable', tableId, { filterGroups: [] })).totalCount).toBe(
      expected,
    );
    const quantity = table.columns.find((c) => c.displayName === 'quantity')!.columnKey;
    const page = await t.services.tables.page(env.ctx, 'StaticTable', tableId, {
      page: 1,
      pageSize: 5000,
      filterGroups: [],
      sorting: [],
      withCount: false,
      forDisplay: false,
    });
    expect(page.data.every((row) => Number(row[quantity]) > 2)).toBe(true);

    // The same attempt again (resumed after a crash): recorded with the write, not appended twice.
    const append = configured('Materialize', {
      source: orders,
      filters,
      target: `StaticTable:${tableId}`,
      mode: 'Append',
    });
    const appendEnv = await runEnv(t, team.accountId, team.owner.userId, run, 'step-2');
    expect(await materialize.run(appendEnv.env, append)).toMatchObject({ rowCount: expected });
    expect(await materialize.run(appendEnv.env, append)).toMatchObject({ rowCount: expected });
    expect(appendEnv.logs.at(-1)?.message).toMatch(/^Already written before a restart/);
    const doubled = await t.services.tables.count(env.ctx, 'StaticTable', tableId, { filterGroups: [] });
    expect(doubled.totalCount).toBe(expected * 2);

    // Replace on a new attempt: the table holds the source's rows once more.
    const replaceEnv = await runEnv(t, team.accountId, team.owner.userId, run, 'step-3');
    await materialize.run(
      replaceEnv.env,
      configured('Materialize', { source: orders, target: 'Big orders', mode: 'Replace' }),
    );
    const all = await t.services.tables.count(env.ctx, 'IntegrationDataset', orders.split(':')[1]!, {
      filterGroups: [],
    });
    expect((await t.services.tables.count(env.ctx, 'StaticTable', tableId, { filterGroups: [] })).totalCount).toBe(
      all.totalCount,
    );
    expect(logs.at(-1)?.message).toBe(`Wrote ${expected.toLocaleString('en-US')} row(s) into Big orders.`);

    // A filter on an unknown column is the user's to fix.
    const bad = await runEnv(t, team.accountId, team.owner.userId, run, 'step-4');
    expect(
      (
        await failureOf(
          materialize.run(
            bad.env,
            configured('Materialize', {
              source: orders,
              filters: [{ columnKey: 'nope', operator: 'Exists' }],
              target: 'X',
            }),
          ),
        )
      ).type,
    ).toBe('ConfigError');
  });
});

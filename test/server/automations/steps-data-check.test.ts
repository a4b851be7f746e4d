import { describe, expect, it } from 'vitest';
import { appWithTeam } from '../static-tables/helpers';
import { configured, definitionAndRun, failureOf, kindOf, runEnv, stepEnv, syncedSample } from './steps-data-env';

const check = kindOf('CheckData');

describe('Check data step against a synced Sample data integration', () => {
  it('counts rows, empty values, freshness and matching rows with bound values; a failing check is a ConfigError saying what it found', async () => {
    const { t, team } = await appWithTeam();
    const owner = team.owner;
    const { orders } = await syncedSample(t, owner.cookie);
    const run = await definitionAndRun(t, team.accountId, owner.userId);
    const { env, logs } = await runEnv(t, team.accountId, owner.userId, run);
    const total = Number(
      (await t.services.tables.count(env.ctx, 'IntegrationDataset', orders.split(':')[1]!, { filterGroups: [] }))
        .totalCount,
    );
    expect(total).toBeGreaterThan(1900);

    // Options: the account's tables (the dataset among them) and, once one is chosen, its columns.
    const options = await check.inputOptions(env, configured('CheckData', { source: orders, check: 'Freshness' }));
    expect(options.source?.find((o) => o.value === orders)).toMatchObject({
      label: 'Shop › orders',
      group: 'Integration datasets',
    });
    expect(options.column?.map((o) => o.value).sort()).toEqual(['ordered_at', 'updated_at']);

    // Row count within bounds passes; its output carries the count.
    const passing = configured('CheckData', { source: orders, check: 'RowCount', min: 1 });
    expect(check.validate(passing)).toBeNull();
    expect(await check.run(env, passing)).toEqual({ passed: true, rowCount: total, value: total });
    expect(logs.at(-1)?.message).toBe(`Check passed: Shop › orders has ${total.toLocaleString('en-US')} rows.`);

    // Too few rows: a ConfigError (never retried) with the numbers.
    const failing = await failureOf(
      check.run(env, configured('CheckData', { source: orders, check: 'RowCount', min: 5000 })),
    );
    expect(failing).toEqual({
      type: 'ConfigError',
      message: `Shop › orders has ${total.toLocaleString('en-US')} rows; at least 5,000 expected`,
    });
    const tooMany = await failureOf(
      check.run(env, configured('CheckData', { source: orders, check: 'RowCount', max: '10' })),
    );
    expect(tooMany.message).toContain('at most 10 expected');

    // No empty order ids.
    expect(
      await check.run(
        env,
        configured('CheckData', { source: orders, check: 'NullsInColumn', column: 'order_id', maxNulls: 0 }),
      ),
    ).toEqual({ passed: true, rowCount: total, value: 0 });

    // Fresh within a day at the sync's time; two days later, stale.
    const fresh = await check.run(
      env,
      configured('CheckData', { source: orders, check: 'Freshness', column: 'ordered_at', maxAgeHours: 24 }),
    );
    expect(fresh.passed).toBe(true);
    t.clock.advance(48 * 3_600_000);
    const stale = await failureOf(
      check.run(
        env,
        configured('CheckData', { source: orders, check: 'Freshness', column: 'ordered_at', maxAgeHours: 24 }),
      ),
    );
    expect(stale.type).toBe('ConfigError');
    const hours =
      /^The newest ordered_at of Shop › orders is 2026-03-0\d .+ \((\d+(?:\.\d)?) hours old\); at most 24 hours expected$/.exec(
        stale.message,
      );
    expect(hours, stale.message).not.toBeNull();
    expect(Number(hours?.[1])).toBeGreaterThanOrEqual(48);
    expect(Number(hours?.[1])).toBeLessThan(48 + 10);

    // Filters no row may match: values are bound (a quote in a value is just text).
    const none = configured('CheckData', {
      source: orders,
      check: 'NoRowsMatch',
      filters: [{ columnKey: 'status', operator: 'Equals', value: "x' OR '1'='1" }],
    });
    expect(check.validate(none)).toBeNull();
    expect(await check.run(env, none)).toEqual({ passed: true, rowCount: total, value: 0 });
    const some = configured('CheckData', {
      source: orders,
      check: 'NoRowsMatch',
      filters: JSON.stringify([{ columnKey: 'quantity', operator: 'GreaterThan', value: 0 }]),
    });
    const matched = await failureOf(check.run(env, some));
    expect(matched.message).toBe(
      `${total.toLocaleString('en-US')} rows of Shop › orders match the filters; none expected`,
    );

    // A filter on a column the table lacks is the user's to fix.
    const unknown = await failureOf(
      check.run(
        env,
        configured('CheckData', {
          source: orders,
          check: 'NoRowsMatch',
          filters: [{ columnKey: 'nope', operator: 'Equals', value: 1 }],
        }),
      ),
    );
    expect(unknown.type).toBe('ConfigError');

    // Preview: what the check would see, without failing.
    const preview = await check.preview(await stepEnv(t, team.accountId, owner.userId), some);
    expect(preview.summary).toBe(
      `Would fail: ${total.toLocaleString('en-US')} rows of Shop › orders match the filters; none expected.`,
    );
    expect(preview.table?.rows.length).toBe(10);
    expect(preview.table?.headers).toContain('order_id');
  });

  it('validates its inputs, refuses another account’s table and stops when the signal aborts', async () => {
    const { t, team } = await appWithTeam();
    expect(check.validate(configured('CheckData', { check: 'RowCount', min: 1 }))).toBe('Table is required.');
    expect(check.validate(configured('CheckData', { source: 'StaticTable:x', check: 'RowCount' }))).toBe(
      'Give at least or at most a number of rows.',
    );
    expect(
      check.validate(configured('CheckData', { source: 'StaticTable:x', check: 'RowCount', min: 5, max: 2 })),
    ).toBe('At least cannot be more than at most.');
    expect(check.validate(configured('CheckData', { source: 'StaticTable:x', check: 'Freshness' }))).toBe(
      'Column is required.',
    );
    expect(check.validate(configured('CheckData', { source: 'StaticTable:x', check: 'NoRowsMatch' }))).toBe(
      'Filters are required.',
    );
    expect(
      check.validate(configured('CheckData', { source: 'StaticTable:x', check: 'NoRowsMatch', filters: '[{' })),
    ).toBe('filters: not valid JSON.');

    const run = await definitionAndRun(t, team.accountId, team.owner.userId);
    const { env, controller } = await runEnv(t, team.accountId, team.owner.userId, run);
    const missing = await failureOf(
      check.run(
        env,
        configured('CheckData', {
          source: 'StaticTable:11111111-1111-4111-8111-111111111111',
          check: 'RowCount',
          min: 1,
        }),
      ),
    );
    expect(missing).toEqual({ type: 'ConfigError', message: 'The chosen table no longer exists.' });

    const { orders } = await syncedSample(t, team.owner.cookie);
    controller.abort(new Error('Cancelled by a user.'));
    await expect(
      check.run(env, configured('CheckData', { source: orders, check: 'RowCount', min: 1 })),
    ).rejects.toThrow('Cancelled by a user.');
  });
});

describe('Notify step', () => {
  it('notifies the automation’s owner by default, chosen members otherwise, and only once per idempotency key', async () => {
    const { t, team } = await appWithTeam();
    const run = await definitionAndRun(t, team.accountId, team.owner.userId);
    const notify = kindOf('Notify');
    const { env } = await runEnv(t, team.accountId, team.admin.userId, run);
    const options = await notify.inputOptions(env, configured('Notify', {}));
    expect(options.members?.map((m) => m.value).sort()).toEqual(
      [team.owner.userId, team.admin.userId, team.readOnly.userId].sort(),
    );
    expect(notify.validate(configured('Notify', { title: 'x' }))).toBe('Message is required.');

    const step = configured('Notify', { title: 'Orders loaded', message: '2,000 orders today' });
    expect(await notify.run(env, step)).toEqual({ notified: 1 });
    // The same attempt resumed after a crash: no second notification.
    expect(await notify.run(env, step)).toEqual({ notified: 1 });
    const rows = await t.deps.db
      .selectFrom('notifications')
      .selectAll()
      .where('kind', '=', 'AutomationNotice')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: team.owner.userId,
      title: 'Orders loaded',
      body: '2,000 orders today',
      target_type: 'Automation',
      target_id: run.definitionId,
    });

    // Chosen members, on a new attempt.
    const second = await runEnv(t, team.accountId, team.admin.userId, run, 'step-1', 2);
    expect(
      await notify.run(
        second.env,
        configured('Notify', { members: [team.readOnly.userId, team.admin.userId], title: 'T', message: 'M' }),
      ),
    ).toEqual({ notified: 2 });
    const preview = await notify.preview(
      env,
      configured('Notify', { members: [team.readOnly.userId], title: 'T', message: 'M' }),
    );
    expect(preview.summary).toBe('Would notify 1 member(s).');
    expect(
      await t.deps.db.selectFrom('notifications').select('id').where('kind', '=', 'AutomationNotice').execute(),
    ).toHaveLength(3);
  });
});

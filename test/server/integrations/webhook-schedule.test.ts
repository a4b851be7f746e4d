import { describe, expect, it } from 'vitest';
import { listen } from '../helpers';
import { expectError } from '../helpers';
import { appWithTeam, failStatementsLike } from '../static-tables/helpers';
import {
  api,
  createIntegration,
  datasetRows,
  definitionNamed,
  ok,
  sampleIntegration,
  selectDatasets,
  type Integration,
  type Job,
} from './helpers';

describe('webhook integrations', () => {
  it('stores posted objects and arrays whole, adds columns for new keys, refuses malformed bodies', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await definitionNamed(t, cookie, 'Webhook');
    const hook = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Hooks',
        schemaName: 'hooks',
      }),
      201,
    );
    expect(hook.webhookToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hook.webhookUrl).toBe(`/api/integrations/webhook/${hook.webhookToken}`);
    expect(hook.discovery.status).toBe('Loaded');
    const stored = await t.deps.db
      .selectFrom('integrations')
      .selectAll()
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(hook.webhookToken);

    const base = await listen(t);
    const post = (body: string, url = `${base}${hook.webhookUrl}`) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    expect((await post(JSON.stringify({ event: 'signup', user: 'ada', amount: 3 }))).status).toBe(200);
    const many = await post(
      JSON.stringify([
        { event: 'order', user: 'bob', amount: 10.5, extra: { sku: 'A1' } },
        { event: 'order', user: 'cy' },
      ]),
    );
    expect(many.status).toBe(200);
    expect(await many.json()).toEqual({ received: 2 });

    for (const bad of ['{"event": ', '"text"', '[1, 2]', '[]', '[{"a":1}, 3]', 'null']) {
      const res = await post(bad);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBeTruthy();
    }
    // A reserved field name is refused before anything is written.
    const reserved = await post(
      JSON.stringify([
        { event: 'late', newcol: 1 },
        { event: 'broken', _row_id: 7 },
      ]),
    );
    expect(reserved.status).toBe(400);
    expect(((await reserved.json()) as { message: string }).message).toBe(
      'Record 2 has a field named _row_id, which is reserved.',
    );
    // A call the warehouse fails midway is stored not at all: neither its rows nor its new column stay.
    const stopFailing = failStatementsLike(t, /^INSERT INTO/);
    expect((await post(JSON.stringify({ event: 'late', newcol: 1 }))).status).toBe(400);
    stopFailing();
    // A value that no longer fits the column's type widens the column instead of losing data.
    expect((await post(JSON.stringify({ event: 'note', amount: 'n/a' }))).status).toBe(200);
    expect((await post('{"a":1}', `${base}/api/integrations/webhook/not-a-token`)).status).toBe(404);

    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${hook.id}`));
    const dataset = detail.datasets.find((d) => d.name === 'records')!;
    const rows = await datasetRows(t, cookie, dataset.id, { sorting: [] });
    expect(rows.map((r) => [r.event, r.user, r.amount])).toEqual([
      ['signup', 'ada', '3'], // as posted and as the grid showed it before the column became text
      ['order', 'bob', '10.5'],
      ['order', 'cy', null],
      ['note', null, 'n/a'],
    ]);
    expect(Object.keys(rows[0]!)).not.toContain('newcol');
    expect(rows[1]!.extra).toEqual({ sku: 'A1' });
    const stats = ok(
      await api<{ day: string; count: number }[]>(t, cookie, 'GET', '/api/integrations/stats/records-per-day?days=7'),
    );
    expect(stats).toHaveLength(7);
    expect(stats.at(-1)).toEqual({ day: '2026-03-04', count: 4 });
    expect(expectError(await api(t, cookie, 'POST', `/api/integrations/${hook.id}/trigger`), 400)).toMatch(
      /as it arrives/,
    );
  });
});

describe('schedules', () => {
  it('Manual saves Inactive; Scheduled presets become UTC crons; invalid crons are refused; the toggle flips', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    const schedule = (body: unknown) =>
      api<Integration>(t, cookie, 'PUT', `/api/integrations/${integration.id}/schedule`, body);

    const daily = ok(await schedule({ schedule: { type: 'Scheduled', frequency: 'Day', time: '06:30' } }));
    expect(daily).toMatchObject({
      syncStatus: 'Active',
      syncFrequencyType: 'Cron',
      syncFrequency: { pattern: '30 6 * * *', timeZone: 'UTC' },
    });
    expect(daily.nextRunAt).toBe('2026-03-05T06:30:00.000Z');
    const weekly = ok(
      await schedule({ schedule: { type: 'Scheduled', frequency: 'Week', weekDay: 'Monday', time: '08:00' } }),
    );
    expect(weekly.syncFrequency?.pattern).toBe('0 8 * * 1');
    expect(weekly.nextRunAt).toBe('2026-03-09T08:00:00.000Z');
    const monthly = ok(
      await schedule({ schedule: { type: 'Scheduled', frequency: 'Month', monthDay: 15, time: '00:00' } }),
    );
    expect(monthly.syncFrequency?.pattern).toBe('0 0 15 * *');
    for (const cron of ['* * * *', '* * * * * *', '61 * * * *', 'every day']) {
      expect(expectError(await schedule({ schedule: { type: 'Scheduled', cron } }), 400)).toBe(
        'Invalid cron expression',
      );
    }
    const off = ok(await schedule({ status: 'Inactive' }));
    expect(off).toMatchObject({ syncStatus: 'Inactive', nextRunAt: null });
    expect(ok(await schedule({ status: 'Active' })).nextRunAt).toBe('2026-03-15T00:00:00.000Z');
    const manual = ok(await schedule({ schedule: { type: 'Manual' } }));
    expect(manual).toMatchObject({
      syncStatus: 'Inactive',
      syncFrequencyType: 'Manual',
      syncFrequency: null,
      nextRunAt: null,
    });
    expectError(
      await api(t, team.readOnly.cookie, 'PUT', `/api/integrations/${integration.id}/schedule`, { status: 'Active' }),
      403,
    );
  });

  it('a cron schedule fires when its time comes and moves nextRunAt on', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    await selectDatasets(t, cookie, integration.id, { products: {} });
    const saved = ok(
      await api<Integration>(t, cookie, 'PUT', `/api/integrations/${integration.id}/schedule`, {
        schedule: { type: 'Scheduled', cron: '*/15 * * * *' },
      }),
    );
    expect(saved.nextRunAt).toBe('2026-03-04T10:15:00.000Z');
    const jobs = async () =>
      ok(await api<{ data: Job[] }>(t, cookie, 'GET', `/api/integrations/${integration.id}/jobs`)).data;

    await t.services.integrations.tickScheduler();
    expect(await jobs()).toHaveLength(0);
    t.clock.advance(16 * 60_000);
    await t.services.integrations.tickScheduler();
    await t.services.integrations.idle();
    const fired = await jobs();
    expect(fired.map((j) => j.status)).toEqual(['Completed']);
    const after = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    expect(after.nextRunAt).toBe('2026-03-04T10:30:00.000Z');
    // Not due again until then.
    await t.services.integrations.tickScheduler();
    expect(await jobs()).toHaveLength(1);
  });
});

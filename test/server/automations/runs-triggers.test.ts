import { beforeEach, describe, expect, it } from 'vitest';
import type { AutomationRun } from '../../../src/shared/automations';
import { call } from '../helpers';
import { appWithTeam, ok } from '../static-tables/helpers';
import { expectCompleted, sampleIntegration, selectDatasets, syncNow } from '../integrations/helpers';
import { insertRun } from '../../../src/server/modules/automations/run-records';
import { takeSnapshot } from '../../../src/server/modules/automations/snapshot';
import { endedRun, fake, insertDefinition, installTestKind } from './runs-helpers';

beforeEach(() => installTestKind());

async function runsOf(t: Parameters<typeof endedRun>[0], cookie: string, definitionId: string) {
  return ok(
    await call<AutomationRun[]>(t.server, 'GET', `/api/automations?automationDefinitionId=${definitionId}`, { cookie }),
  );
}

describe('automation triggers', () => {
  it('a schedule fires when the moved clock reaches its next run time, as the owner, and moves on to the next one', async () => {
    const { t, team } = await appWithTeam();
    // The test clock starts at 2026-03-04T10:00Z; daily at 11:00 UTC.
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      triggerType: 'Schedule',
      schedulePattern: '0 11 * * *',
      nextRunAt: '2026-03-04T11:00:00.000Z',
      steps: [{ inputs: { value: 'scheduled for {{trigger.scheduledFor}}' } }],
    });
    await t.services.automationRuns.tickScheduler();
    expect(await runsOf(t, team.owner.cookie, def.id)).toEqual([]);
    t.clock.advance(60 * 60_000);
    await t.services.automationRuns.tickScheduler();
    const [run] = await runsOf(t, team.owner.cookie, def.id);
    expect(run).toMatchObject({ origin: 'Schedule', runNumber: 1 });
    expect(run?.triggerData).toMatchObject({ type: 'Schedule', scheduledFor: '2026-03-04T11:00:00.000Z' });
    const done = await endedRun(t, team.owner.cookie, run!.id);
    expect(done.status).toBe('Completed');
    expect(done.steps[0]?.output?.value).toBe('scheduled for 2026-03-04T11:00:00.000Z');
    const row = await t.deps.db
      .selectFrom('automation_definitions')
      .select('next_run_at')
      .where('id', '=', def.id)
      .executeTakeFirstOrThrow();
    expect(row.next_run_at).toBe('2026-03-05T11:00:00.000Z');
    const runAs = await t.deps.db
      .selectFrom('automation_runs')
      .select('run_as_user_id')
      .where('id', '=', run!.id)
      .executeTakeFirstOrThrow();
    expect(runAs.run_as_user_id).toBe(team.owner.userId);
    // Ticking again at the same time starts nothing more.
    await t.services.automationRuns.tickScheduler();
    expect(await runsOf(t, team.owner.cookie, def.id)).toHaveLength(1);
  });

  it('a scheduled start while a run of the definition has not ended is skipped, and the run going says so in its log', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      triggerType: 'Schedule',
      schedulePattern: '0 11 * * *',
      nextRunAt: '2026-03-04T11:00:00.000Z',
      steps: [{ inputs: { mode: 'hang' } }],
    });
    t.clock.advance(60 * 60_000);
    await t.services.automationRuns.tickScheduler();
    const [first] = await runsOf(t, team.owner.cookie, def.id);
    await expect.poll(() => fake.calls.length).toBe(1);
    t.clock.advance(24 * 60 * 60_000);
    await t.services.automationRuns.tickScheduler();
    expect(await runsOf(t, team.owner.cookie, def.id)).toHaveLength(1);
    const logs = ok(
      await call<{ level: string; message: string }[]>(t.server, 'GET', `/api/automations/${first!.id}/logs`, {
        cookie: team.owner.cookie,
      }),
    );
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'WARN',
        message: 'A scheduled start was skipped at 2026-03-05T11:00:00.000Z: this run had not ended.',
      }),
    );
    ok(await call(t.server, 'POST', `/api/automations/${first!.id}/cancel`, { cookie: team.owner.cookie }));
    expect((await endedRun(t, team.owner.cookie, first!.id)).status).toBe('Cancelled');
  });

  it('a start kept out by a run that has not ended is answered with that run, so its log line needs no second read', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      triggerType: 'Manual',
      steps: [{ inputs: { mode: 'hang' } }],
    });
    const snapshot = (await takeSnapshot(t.deps.db, def.id))!;
    const start = {
      accountId: team.accountId,
      snapshot,
      origin: 'Schedule' as const,
      triggerData: {},
      runAsUserId: team.owner.userId,
    };
    const first = await insertRun(t.deps.db, start, t.deps.clock());
    expect(first.id).toEqual(expect.any(String));
    expect(await insertRun(t.deps.db, start, t.deps.clock())).toEqual({ id: null, runningId: first.id });
    ok(await call(t.server, 'POST', `/api/automations/${first.id}/cancel`, { cookie: team.owner.cookie }));
    expect((await endedRun(t, team.owner.cookie, first.id!)).status).toBe('Cancelled');
  });

  it('a scheduled run whose owner can no longer write fails with a ConfigError saying so', async () => {
    const { t, team } = await appWithTeam();
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.readOnly.userId,
      triggerType: 'Schedule',
      schedulePattern: '0 11 * * *',
      nextRunAt: '2026-03-04T10:00:00.000Z',
      steps: [{ inputs: { value: 1 } }],
    });
    await t.services.automationRuns.tickScheduler();
    const [run] = await runsOf(t, team.owner.cookie, def.id);
    const done = await endedRun(t, team.owner.cookie, run!.id);
    expect(done.status).toBe('Failed');
    expect(done.error).toBe("Reader can no longer change this account's data, so the automation cannot run as them.");
    expect(fake.calls).toEqual([]);
  });

  it('a completed Sample data sync starts the AfterSync automations of that integration, with the sync in its trigger data', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await sampleIntegration(t, cookie, 'Shop');
    const other = await sampleIntegration(t, cookie, 'Other');
    const def = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      triggerType: 'AfterSync',
      triggerIntegrationId: shop.id,
      steps: [{ inputs: { value: '{{trigger.integrationName}}: {{trigger.recordsProcessed}} rows' } }],
    });
    const onlyNew = await insertDefinition(t, {
      accountId: team.accountId,
      createdBy: team.owner.userId,
      triggerType: 'AfterSync',
      triggerIntegrationId: other.id,
      newRowsOnly: true,
      steps: [{ inputs: { value: 1 } }],
    });
    await selectDatasets(t, cookie, shop.id, { orders: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    const sync = await syncNow(t, cookie, shop.id);
    expectCompleted(sync);
    await expect.poll(async () => (await runsOf(t, cookie, def.id)).length).toBe(1);
    const [run] = await runsOf(t, cookie, def.id);
    expect(run?.origin).toBe('AfterSync');
    expect(run?.triggerData).toMatchObject({
      type: 'AfterSync',
      integrationId: shop.id,
      integrationName: 'Shop',
      syncRunId: sync.id,
      status: 'Completed',
    });
    const done = await endedRun(t, cookie, run!.id);
    expect(done.status).toBe('Completed');
    expect(done.steps[0]?.output?.value).toMatch(/^Shop: \d{4,} rows$/);
    // A sync that did not complete starts nothing.
    await t.deps.events.emit('syncFinished', {
      accountId: team.accountId,
      integrationId: shop.id,
      runId: 'r0',
      status: 'Failed',
      recordsProcessed: 3,
      datasets: [],
    });
    expect(await runsOf(t, cookie, def.id)).toHaveLength(1);
    // A sync event that brought no rows does not start an onlyWithNewRows automation; one with rows does.
    await t.deps.events.emit('syncFinished', {
      accountId: team.accountId,
      integrationId: other.id,
      runId: 'r1',
      status: 'Completed',
      recordsProcessed: 0,
      datasets: [],
    });
    expect(await runsOf(t, cookie, onlyNew.id)).toEqual([]);
    await t.deps.events.emit('syncFinished', {
      accountId: team.accountId,
      integrationId: other.id,
      runId: 'r2',
      status: 'Completed',
      recordsProcessed: 5,
      datasets: [{ name: 'orders', recordsProcessed: 5 }],
    });
    expect(await runsOf(t, cookie, onlyNew.id)).toHaveLength(1);
    expect(fake.calls.length).toBeGreaterThanOrEqual(1);
  });
});

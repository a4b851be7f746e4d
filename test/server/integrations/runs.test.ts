import { describe, expect, it } from 'vitest';
import { INTEGRATION_MESSAGES } from '../../../src/shared/integrations';
import type { Paged } from '../../../src/shared/tables';
import { expectError, type CallResult, type TestApp, type TrpcError } from '../helpers';
import { appWithTeam, appWithTwoTeams, mutation, query, trpcOk } from '../static-tables/helpers';
import { api, ok, sampleIntegration, selectDatasets, syncNow, type Integration, type Job, type Run } from './helpers';

const MINUTE = 60_000;

describe('Sync data now needs a chosen dataset', () => {
  it('refuses a sync with no dataset chosen (REST and tRPC) and records no run; syncs once one is chosen', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    const url = `/api/integrations/${integration.id}`;

    expect(expectError(await api(t, cookie, 'POST', `${url}/trigger`), 400)).toBe(
      INTEGRATION_MESSAGES.noDatasetsChosen,
    );
    const refused = (await mutation(
      t,
      'integrations.trigger',
      { id: integration.id },
      cookie,
    )) as unknown as CallResult<TrpcError>;
    expect(refused.body.error.data.code).toBe('BAD_REQUEST');
    expect(refused.body.error.message).toBe(INTEGRATION_MESSAGES.noDatasetsChosen);
    await t.services.integrations.idle();
    expect(ok(await api<Paged<Job>>(t, cookie, 'GET', `${url}/jobs`)).count).toBe(0);
    expect(ok(await api<Integration>(t, cookie, 'GET', url)).recentRuns).toEqual([]);

    // A chosen dataset, then unchosen again: refused once more.
    await selectDatasets(t, cookie, integration.id, { products: {} });
    const run = await syncNow(t, cookie, integration.id);
    expect(run.status).toBe('Completed');
    expect(run.recordsProcessed).toBe(50);
    ok(await api(t, cookie, 'PUT', `${url}/datasets`, { datasets: { products: { isSelected: false } } }));
    expectError(await api(t, cookie, 'POST', `${url}/trigger`), 400);
    // A read_only member is refused for their role first, whatever is chosen.
    expectError(await api(t, team.readOnly.cookie, 'POST', `${url}/trigger`), 403);
  });
});

describe('a scheduled sync with no dataset chosen', () => {
  it('ends Failed with the reason in its log, never a green run of nothing', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    const url = `/api/integrations/${integration.id}`;
    ok(await api(t, cookie, 'PUT', `${url}/schedule`, { schedule: { type: 'Scheduled', cron: '*/15 * * * *' } }));
    t.clock.advance(16 * MINUTE);
    await t.services.integrations.tickScheduler();
    await t.services.integrations.idle();
    const [run] = ok(await api<Paged<Job>>(t, cookie, 'GET', `${url}/jobs`)).data;
    expect(run).toMatchObject({ status: 'Failed', recordsProcessed: 0 });
    const logs = ok(await api<{ line: string }[]>(t, cookie, 'GET', `${url}/jobs/${run!.id}/logs`));
    expect(logs.map((l) => l.line)).toContain(`[ERROR] ${INTEGRATION_MESSAGES.noDatasetsChosen}`);
  });
});

describe('Data syncing needs a schedule', () => {
  it('refuses turning syncing on with no schedule; a schedule turns it on, and the toggle flips after that', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    const schedule = (body: unknown) =>
      api<Integration>(t, cookie, 'PUT', `/api/integrations/${integration.id}/schedule`, body);

    expect(expectError(await schedule({ status: 'Active' }), 400)).toBe(INTEGRATION_MESSAGES.scheduleNeeded);
    const still = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    expect(still).toMatchObject({ syncStatus: 'Inactive', nextRunAt: null });

    const on = ok(await schedule({ schedule: { type: 'Scheduled', frequency: 'Day', time: '06:30' } }));
    expect(on).toMatchObject({ syncStatus: 'Active', nextRunAt: '2026-03-05T06:30:00.000Z' });
    expect(ok(await schedule({ status: 'Inactive' })).syncStatus).toBe('Inactive');
    expect(ok(await schedule({ status: 'Active' })).nextRunAt).toBe('2026-03-05T06:30:00.000Z');
    // Manual forgets the schedule: on again needs a new one.
    ok(await schedule({ schedule: { type: 'Manual' } }));
    expectError(await schedule({ status: 'Active' }), 400);
  });
});

describe('the runs of an integration, paged', () => {
  async function twelveRuns(t: TestApp, cookie: string, id: string): Promise<string[]> {
    // Products read whole every time, so each run has figures of its own.
    await selectDatasets(t, cookie, id, { products: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      // Every third run also syncs customers, so runs differ in their datasets and figures.
      const withCustomers = i % 3 === 2;
      ok(
        await api(t, cookie, 'PUT', `/api/integrations/${id}/datasets`, {
          datasets: { customers: { isSelected: withCustomers } },
        }),
      );
      t.clock.advance(MINUTE);
      ids.push((await syncNow(t, cookie, id)).id);
    }
    return ids;
  }

  it('lists every run newest first, a page at a time, each openable with its own datasets and logs', async () => {
    const { t, a, b } = await appWithTwoTeams();
    const cookie = a.owner.cookie;
    const integration = await sampleIntegration(t, cookie);
    const url = `/api/integrations/${integration.id}`;
    const ids = await twelveRuns(t, cookie, integration.id);
    const newestFirst = [...ids].reverse();

    const page = async (n: number, size: number) =>
      ok(await api<Paged<Job>>(t, cookie, 'GET', `${url}/jobs?Page=${n}&PageSize=${size}`));
    const first = await page(1, 5);
    expect(first).toMatchObject({ page: 1, pageSize: 5, count: 12, totalPages: 3, hasMore: true });
    expect(first.data.map((j) => j.id)).toEqual(newestFirst.slice(0, 5));
    const createdAt = first.data.map((j) => j.createdAt);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);
    expect((await page(2, 5)).data.map((j) => j.id)).toEqual(newestFirst.slice(5, 10));
    const last = await page(3, 5);
    expect(last).toMatchObject({ page: 3, count: 12, hasMore: false });
    expect(last.data.map((j) => j.id)).toEqual(newestFirst.slice(10));
    expect((await page(4, 5)).data).toEqual([]);
    // The tRPC call the Activity log uses answers the same page.
    const viaTrpc = trpcOk(
      await query<Paged<Job>>(t, 'integrations.jobs', { id: integration.id, page: 2, pageSize: 5 }, cookie),
    );
    expect(viaTrpc.data.map((j) => j.id)).toEqual(newestFirst.slice(5, 10));

    // One run: its datasets with their figures and times, and only its own log lines.
    const withCustomers = ids[2]!;
    const job = ok(await api<Job>(t, cookie, 'GET', `${url}/jobs/${withCustomers}`));
    expect(job.status).toBe('Completed');
    const datasets = job.attempts.at(-1)!.progress.datasets;
    expect(datasets.map((d) => [d.name, d.status, d.recordsProcessed])).toEqual([
      ['customers', 'Completed', 200],
      ['products', 'Completed', 50],
    ]);
    for (const d of datasets) {
      expect(d.startedAt).toEqual(expect.any(String));
      expect(d.endedAt).toEqual(expect.any(String));
    }
    expect(
      trpcOk(await query<Job>(t, 'integrations.job', { id: integration.id, jobId: ids[0] }, cookie)),
    ).toMatchObject({ id: ids[0], recordsProcessed: 50 });
    const logs = ok(await api<{ line: string }[]>(t, cookie, 'GET', `${url}/jobs/${withCustomers}/logs`));
    expect(logs[0]!.line).toBe('[INFO] Sync started: 2 dataset(s).');
    expect(logs.filter((l) => l.line.startsWith('[INFO] Sync started')).length).toBe(1);

    // A read_only member reads them; another account's members get 404 for all of it.
    expect(ok(await api<Paged<Job>>(t, a.readOnly.cookie, 'GET', `${url}/jobs?PageSize=5`)).count).toBe(12);
    ok(await api(t, a.readOnly.cookie, 'GET', `${url}/jobs/${withCustomers}`));
    for (const path of [`${url}/jobs`, `${url}/jobs/${withCustomers}`, `${url}/jobs/${withCustomers}/logs`])
      expectError(await api(t, b.owner.cookie, 'GET', path), 404);
    const hidden = (await query(
      t,
      'integrations.job',
      { id: integration.id, jobId: withCustomers },
      b.owner.cookie,
    )) as unknown as CallResult<TrpcError>;
    expect(hidden.body.error.data.code).toBe('NOT_FOUND');

    // A run id of another integration (same account) is not a run of this one.
    const other = await sampleIntegration(t, cookie, 'Other shop');
    await selectDatasets(t, cookie, other.id, { products: {} });
    const foreign: Run = (await syncNow(t, cookie, other.id)) as Run;
    expectError(await api(t, cookie, 'GET', `${url}/jobs/${foreign.id}`), 404);
    expect(ok(await api<Paged<Job>>(t, cookie, 'GET', `${url}/jobs`)).count).toBe(12);
  });
});

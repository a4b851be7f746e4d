/**
 * Calls about syncs: trigger, trigger-full-refresh, jobs (paged), one job, a job's logs, job_status,
 * records per day.
 */
import type {
  Attempt,
  IntegrationType,
  Job,
  RecordsPerDay,
  Run,
  RunLog,
  RunLogLevel,
  RunStatus,
} from '../../../shared/integrations';
import { INTEGRATION_MESSAGES, type JobsRequest, type TriggerFullRefreshRequest } from '../../../shared/integrations';
import type { RecordsPerDayRequest } from '../../../shared/integrations-api';
import type { Paged } from '../../../shared/tables';
import type { AccountContext } from '../../context';
import { badInput, notFound } from '../../errors';
import { requireWriter } from '../accounts/access';
import type { IntegrationsCore } from './core';
import { listDatasetRows, parseJson, toRun, type IntegrationRow, type RunRow } from './repo';

const PUSH: readonly IntegrationType[] = ['Webhook', 'IncomingEmail'];
const SORT_COLUMNS = {
  createdAt: 'created_at',
  startedAt: 'started_at',
  endedAt: 'ended_at',
  status: 'status',
  recordsProcessed: 'records_processed',
} as const;

export function createRunCalls(core: IntegrationsCore, typeOf: (row: IntegrationRow) => Promise<IntegrationType>) {
  const { db, clock } = core.deps;

  async function syncable(ctx: AccountContext, id: string): Promise<IntegrationRow> {
    const row = await core.mustFind(ctx, id);
    requireWriter(ctx);
    if (PUSH.includes(await typeOf(row))) throw badInput(INTEGRATION_MESSAGES.pushOnly);
    if (row.requires_reauthentication === 1) throw badInput(INTEGRATION_MESSAGES.reauthRequired);
    return row;
  }

  /** Runs with their attempts (oldest attempt first), in the order given. */
  async function withAttempts(runs: RunRow[]): Promise<Job[]> {
    const attempts = runs.length
      ? await db
          .selectFrom('integration_attempts')
          .selectAll()
          .where(
            'run_id',
            'in',
            runs.map((r) => r.id),
          )
          .orderBy('attempt_number')
          .execute()
      : [];
    return runs.map((run): Job => ({
      ...toRun(run),
      attempts: attempts
        .filter((a) => a.run_id === run.id)
        .map((a): Attempt => ({
          id: a.id,
          workflowId: run.id,
          attemptNumber: a.attempt_number,
          startTime: a.started_at,
          endTime: a.ended_at,
          status: a.status as RunStatus,
          progress: parseJson<Attempt['progress']>(a.progress, { state: a.status as RunStatus, datasets: [] }),
        })),
    }));
  }

  /** The run `jobId` of the integration (already found in the caller's account), or 404. */
  async function runOf(id: string, jobId: string): Promise<RunRow> {
    const run = await db
      .selectFrom('integration_runs')
      .selectAll()
      .where('id', '=', jobId)
      .where('integration_id', '=', id)
      .executeTakeFirst();
    if (!run) throw notFound(INTEGRATION_MESSAGES.jobNotFound);
    return run;
  }

  return {
    /**
     * 'Sync data now': a run of the selected datasets; 409 while one runs or waits. With no dataset
     * chosen it is refused: the run would sync nothing and still end Completed.
     */
    async trigger(ctx: AccountContext, id: string): Promise<Run> {
      const row = await syncable(ctx, id);
      if (!(await listDatasetRows(db, id)).some((d) => d.is_selected === 1))
        throw badInput(INTEGRATION_MESSAGES.noDatasetsChosen);
      return toRun(await core.runner.trigger(row));
    },

    /** 'Refresh data': the named datasets start over (state cleared, table replaced). */
    async triggerFullRefresh(ctx: AccountContext, id: string, { datasets }: TriggerFullRefreshRequest): Promise<Run> {
      const row = await syncable(ctx, id);
      const known = new Set((await listDatasetRows(db, id)).map((d) => d.name));
      const unknown = datasets.find((d) => !known.has(d));
      if (unknown !== undefined) throw badInput(`datasets: there is no dataset named "${unknown}".`);
      return toRun(await core.runner.trigger(row, [...new Set(datasets)]));
    },

    /**
     * An automation's Sync integration step: the named datasets (none: the selected ones), each
     * synced as set up, or started over with `fullRefresh`. 409 while a run waits or runs, as
     * 'Sync data now'.
     */
    async syncDatasets(
      ctx: AccountContext,
      id: string,
      { datasets, fullRefresh }: { datasets: string[]; fullRefresh: boolean },
    ): Promise<Run> {
      const row = await syncable(ctx, id);
      const rows = await listDatasetRows(db, id);
      const known = new Set(rows.map((d) => d.name));
      const unknown = datasets.find((d) => !known.has(d));
      if (unknown !== undefined) throw badInput(`datasets: there is no dataset named "${unknown}".`);
      const chosen = datasets.length
        ? [...new Set(datasets)]
        : rows.filter((d) => d.is_selected === 1).map((d) => d.name);
      if (chosen.length === 0) throw badInput(INTEGRATION_MESSAGES.noDatasetsChosen);
      if (fullRefresh) return toRun(await core.runner.trigger(row, chosen));
      return toRun(await core.runner.trigger(row, undefined, datasets.length ? chosen : undefined));
    },

    /** Stops a run of the integration that waits or runs (it ends Cancelled); false when none of this process runs it. */
    async cancelRun(ctx: AccountContext, id: string, runId: string): Promise<boolean> {
      await core.mustFind(ctx, id);
      requireWriter(ctx);
      await runOf(id, runId);
      return core.runner.cancel(runId);
    },

    /** Runs newest first (or as sorted), filtered by status, each with its attempts. */
    async jobs(ctx: AccountContext, id: string, request: JobsRequest): Promise<Paged<Job>> {
      await core.mustFind(ctx, id);
      let query = db.selectFrom('integration_runs').where('integration_id', '=', id);
      if (request.status.length > 0) query = query.where('status', 'in', request.status);
      const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const count = Number(counted?.n ?? 0);
      const direction = request.sortDirection === 'Ascending' ? 'asc' : 'desc';
      const runs = await query
        .selectAll()
        .orderBy(SORT_COLUMNS[request.sortBy], direction)
        .orderBy('created_at', direction)
        .orderBy('id', direction)
        .limit(request.pageSize)
        .offset((request.page - 1) * request.pageSize)
        .execute();
      const data = await withAttempts(runs);
      return {
        page: request.page,
        pageSize: request.pageSize,
        count,
        totalPages: Math.max(1, Math.ceil(count / request.pageSize)),
        hasMore: request.page * request.pageSize < count,
        data,
      };
    },

    /** One run with its attempts and per-dataset progress (the run page). */
    async job(ctx: AccountContext, id: string, jobId: string): Promise<Job> {
      await core.mustFind(ctx, id);
      const [job] = await withAttempts([await runOf(id, jobId)]);
      return job as Job;
    },

    async logs(ctx: AccountContext, id: string, jobId: string): Promise<RunLog[]> {
      await core.mustFind(ctx, id);
      await runOf(id, jobId);
      const rows = await db
        .selectFrom('integration_run_logs')
        .selectAll()
        .where('run_id', '=', jobId)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        level: r.level as RunLogLevel,
        message: r.message,
        at: r.at,
        line: `[${r.level}] ${r.message}`,
      }));
    },

    /** What 'Sync data now' polls: the latest run and whether a sync runs or waits. */
    async jobStatus(ctx: AccountContext, id: string) {
      const row = await core.mustFind(ctx, id);
      const latest = await db
        .selectFrom('integration_runs')
        .selectAll()
        .where('integration_id', '=', id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      const run = latest ? toRun(latest) : null;
      return {
        status: run?.status ?? null,
        isRunning: run?.status === 'Running' || run?.status === 'Pending',
        latestRun: run,
        syncStatus: row.sync_status,
        nextRunAt: row.next_run_at,
        requiresReAuthentication: row.requires_reauthentication === 1,
      };
    },

    /** Records processed per UTC day over the last `days` days (today included), zeros filled in. */
    async recordsPerDay(ctx: AccountContext, { days }: RecordsPerDayRequest): Promise<RecordsPerDay[]> {
      const today = clock();
      const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1)));
      const rows = await db
        .selectFrom('integration_records_per_day')
        .select(['day', (eb) => eb.fn.sum<number>('count').as('total')])
        .where('account_id', '=', ctx.accountId)
        .where('day', '>=', first.toISOString().slice(0, 10))
        .groupBy('day')
        .execute();
      const byDay = new Map(rows.map((r) => [r.day, Number(r.total)]));
      return Array.from({ length: days }, (_, i) => {
        const day = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
        return { day, count: byDay.get(day) ?? 0 };
      });
    },
  };
}

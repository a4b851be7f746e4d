/**
 * services.automationRuns: starting runs (Run now, rerun), reading them (list, latest, one with its
 * steps, logs), cancelling them, and the worker and triggers' life (start/close with the app).
 * Every read and write is scoped to the caller's account (another account's ids are 404); starting,
 * rerunning and cancelling need a writer.
 */
import {
  AUTOMATION_MESSAGES,
  FINISHED_RUN_STATUSES,
  type AutomationLogLine,
  type AutomationRun,
  type AutomationRunDetail,
  type AutomationRunStatus,
  type RerunRequest,
  type RunListQuery,
} from '../../../shared/automations';
import type { AccountContext, Deps } from '../../context';
import type { AutomationRunRow } from '../../db/schema';
import { badInput, conflict, notFound } from '../../errors';
import { createScheduler } from '../../jobs/scheduler';
import type { CoreServices } from '../../services';
import { requireWriter } from '../accounts/access';
import { endEventOf, hubMessage, pushRunEvent } from './run-events';
import { insertRun, runDetail, runLogs, toRun, type CarriedStep, type NewRun } from './run-records';
import { createAutomationRunner } from './runner';
import { snapshotError, takeSnapshot } from './snapshot';
import { asInputValues, manualTriggerData } from './trigger-data';
import { onSyncFinished, scheduleRound } from './triggers';

/** What the runs need of the definitions service (auto-defs): the error that keeps a definition from running. */
export interface DefinitionChecks {
  definitionError(accountId: string, definitionId: string): Promise<string | null>;
}

export function createAutomationRunsService(deps: Deps, core: CoreServices, checks: DefinitionChecks) {
  const { db, clock } = deps;
  const runner = createAutomationRunner(deps, core);
  const scheduler = createScheduler(
    deps.config.integrations.schedulerIntervalMs,
    () => scheduleRound(deps, checks, runner.wake),
    (error) => console.error('Automation scheduler round failed', error),
  );
  let unlisten: (() => void) | null = null;

  async function mustFindRun(ctx: AccountContext, runId: string): Promise<AutomationRunRow> {
    const row = await db
      .selectFrom('automation_runs')
      .selectAll()
      .where('id', '=', runId)
      .where('account_id', '=', ctx.accountId)
      .executeTakeFirst();
    if (!row) throw notFound(AUTOMATION_MESSAGES.runNotFound);
    return row;
  }

  async function mustFindDefinition(ctx: AccountContext, id: string) {
    const row = await db
      .selectFrom('automation_definitions')
      .select(['id', 'account_id'])
      .where('id', '=', id)
      .where('account_id', '=', ctx.accountId)
      .executeTakeFirst();
    if (!row) throw notFound(AUTOMATION_MESSAGES.notFound);
    return row;
  }

  /** A runnable snapshot of the definition now, or the definition's error as a 400. */
  async function runnableSnapshot(accountId: string, definitionId: string) {
    const snapshot = await takeSnapshot(db, definitionId);
    if (!snapshot) throw notFound(AUTOMATION_MESSAGES.notFound);
    const error = (await checks.definitionError(accountId, definitionId)) ?? snapshotError(snapshot);
    if (error) throw badInput(snapshot.steps.length === 0 ? error : `${AUTOMATION_MESSAGES.hasError} ${error}`);
    return snapshot;
  }

  async function queue(run: NewRun): Promise<AutomationRun> {
    const { id } = await insertRun(db, run, clock());
    if (id === null) throw conflict(AUTOMATION_MESSAGES.alreadyRunning);
    runner.wake();
    const row = await db.selectFrom('automation_runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return toRun(row);
  }

  return {
    runner,
    /** Run now: a run of the definition as it is, as the caller. */
    async trigger(ctx: AccountContext, definitionId: string): Promise<AutomationRun> {
      await mustFindDefinition(ctx, definitionId);
      requireWriter(ctx);
      const snapshot = await runnableSnapshot(ctx.accountId, definitionId);
      return queue({
        accountId: ctx.accountId,
        snapshot,
        origin: 'Manual',
        triggerData: asInputValues(manualTriggerData(ctx.user, clock())),
        runAsUserId: ctx.user.id,
      });
    },

    /** Most recent first; `before` (a createdAt) pages back. */
    async list(ctx: AccountContext, query: Partial<RunListQuery>): Promise<AutomationRun[]> {
      let q = db.selectFrom('automation_runs').selectAll().where('account_id', '=', ctx.accountId);
      if (query.automationDefinitionId) q = q.where('definition_id', '=', query.automationDefinitionId);
      if (query.before) q = q.where('created_at', '<', query.before);
      const rows = await q
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit ?? 100)
        .execute();
      return rows.map(toRun);
    },

    /** The latest run of each definition (of one, when named). Run ids are time-ordered, so the greatest is the latest. */
    async latest(ctx: AccountContext, query: { automationDefinitionId?: string }): Promise<AutomationRun[]> {
      let latestIds = db
        .selectFrom('automation_runs')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('account_id', '=', ctx.accountId)
        .groupBy('definition_id');
      if (query.automationDefinitionId) latestIds = latestIds.where('definition_id', '=', query.automationDefinitionId);
      const rows = await db
        .selectFrom('automation_runs')
        .selectAll()
        .where('account_id', '=', ctx.accountId)
        .where('id', 'in', latestIds)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(toRun);
    },

    async get(ctx: AccountContext, runId: string): Promise<AutomationRunDetail> {
      return runDetail(db, await mustFindRun(ctx, runId));
    },

    async logs(ctx: AccountContext, runId: string): Promise<AutomationLogLine[]> {
      await mustFindRun(ctx, runId);
      return runLogs(db, runId);
    },

    /**
     * A new run linked to this one (rerun_of), as the caller, on the definition as it is now. From
     * the failed step: the steps before it that finished in the old run keep their outputs (copied,
     * never run again) and the run starts at the first one without.
     */
    async rerun(ctx: AccountContext, runId: string, request: RerunRequest): Promise<AutomationRun> {
      const old = await mustFindRun(ctx, runId);
      requireWriter(ctx);
      const snapshot = await runnableSnapshot(ctx.accountId, old.definition_id);
      let carried: CarriedStep[] = [];
      let resumedFrom: string | null = null;
      if (request.from === 'FailedStep') {
        if (old.status === 'Completed' || !FINISHED_RUN_STATUSES.includes(old.status as AutomationRunStatus))
          throw badInput(AUTOMATION_MESSAGES.nothingToResume);
        const oldSteps = await db
          .selectFrom('automation_step_runs')
          .selectAll()
          .where('run_id', '=', old.id)
          .orderBy('position')
          .execute();
        const failed = oldSteps.find((s) => s.output === null);
        if (!failed) throw badInput(AUTOMATION_MESSAGES.nothingToResume);
        const failedAt = snapshot.steps.findIndex((s) => s.id === failed.step_id);
        if (failedAt < 0) throw badInput(`${AUTOMATION_MESSAGES.nothingToResume} Its failed step was removed.`);
        const finished = new Map(oldSteps.filter((s) => s.output !== null).map((s) => [s.step_id, s]));
        carried = snapshot.steps.slice(0, failedAt).flatMap((step) => {
          const done = finished.get(step.id);
          return done
            ? [
                {
                  stepId: step.id,
                  status: done.status as CarriedStep['status'],
                  attempt: done.attempt,
                  inputs: done.inputs,
                  output: done.output as string,
                  startedAt: done.started_at,
                  endedAt: done.ended_at,
                  error: done.error,
                },
              ]
            : [];
        });
        resumedFrom = failed.step_id;
      }
      return queue({
        accountId: ctx.accountId,
        snapshot,
        origin: 'Rerun',
        triggerData: JSON.parse(old.trigger_data) as NewRun['triggerData'],
        runAsUserId: ctx.user.id,
        rerunOf: old.id,
        resumedFromStepId: resumedFrom,
        carried,
      });
    },

    /**
     * Asks a run to stop. One nobody has claimed yet ends Cancelled here; a running one is flagged
     * and its worker aborts its step (at once in this process, else at its next heartbeat).
     */
    async cancel(ctx: AccountContext, runId: string): Promise<AutomationRun> {
      const row = await mustFindRun(ctx, runId);
      requireWriter(ctx);
      if (FINISHED_RUN_STATUSES.includes(row.status as AutomationRunStatus)) return toRun(row);
      await db.updateTable('automation_runs').set({ cancel_requested: 1 }).where('id', '=', runId).execute();
      const unclaimed = await db
        .updateTable('automation_runs')
        .set({ status: 'Cancelled', error: AUTOMATION_MESSAGES.cancelledByUser, ended_at: clock().toISOString() })
        .where('id', '=', runId)
        .where('status', '=', 'Pending')
        .where('lease_owner', 'is', null)
        .executeTakeFirst();
      if (Number(unclaimed.numUpdatedRows) === 1)
        pushRunEvent(
          deps,
          row,
          endEventOf('Cancelled'),
          hubMessage(row, 'Cancelled', AUTOMATION_MESSAGES.cancelledByUser),
        );
      else runner.cancelLocal(runId);
      return toRun(await mustFindRun(ctx, runId));
    },

    /** One scheduler round now (tests move the clock, then tick). */
    tickScheduler: () => scheduler.tick(),
    /** Resolves when this worker runs nothing and nothing waits to be claimed. */
    idle: () => runner.idle(),

    async start(): Promise<void> {
      unlisten = deps.events.on('syncFinished', (event) => onSyncFinished(deps, checks, event, runner.wake));
      await runner.start();
      scheduler.start();
    },
    async close(): Promise<void> {
      unlisten?.();
      await scheduler.stop();
      await runner.close();
    },
  };
}

export type AutomationRunsService = ReturnType<typeof createAutomationRunsService>;

/**
 * The rows of a run: creating one (its number bumped in the same transaction, a step row per step
 * of its snapshot), its log, and the entities the API answers. The runner (runner.ts) changes the
 * rows as it goes; everything here is plain reads and writes.
 */
import type { AttemptErrorType } from '../../../shared/integrations';
import type {
  AutomationLogLevel,
  AutomationLogLine,
  AutomationRun,
  AutomationRunDetail,
  AutomationRunStatus,
  InputValue,
  RunOrigin,
  StepAttempt,
  StepKind,
  StepRun,
  StepRunStatus,
} from '../../../shared/automations';
import type { Db } from '../../db/database';
import { newTimeOrderedId } from '../../db/ids';
import type { AutomationRunRow, AutomationStepRunRow } from '../../db/schema';
import type { RunSnapshot } from './snapshot';
import { insertLog } from './step-writes';

/** A finished step of an earlier run, carried into a rerun from its failed step. */
export interface CarriedStep {
  stepId: string;
  status: StepRunStatus;
  attempt: number;
  inputs: string | null;
  output: string;
  startedAt: string | null;
  endedAt: string | null;
  error: string | null;
}

export interface NewRun {
  accountId: string;
  snapshot: RunSnapshot;
  origin: RunOrigin;
  triggerData: Record<string, InputValue>;
  runAsUserId: string | null;
  rerunOf?: string | null;
  resumedFromStepId?: string | null;
  carried?: CarriedStep[];
}

/** A run of the definition that has not ended (Pending or Running). */
export async function activeRunOf(db: Db, definitionId: string): Promise<AutomationRunRow | undefined> {
  return db
    .selectFrom('automation_runs')
    .selectAll()
    .where('definition_id', '=', definitionId)
    .where('status', 'in', ['Pending', 'Running'])
    .executeTakeFirst();
}

/** What insertRun did: the new run's id, or (id null, nothing written) the run that had not ended. */
export type InsertedRun = { id: string } | { id: null; runningId: string };

/**
 * Inserts a Pending run with its step rows; the definition's run counter moves in the same
 * transaction. Nothing is written when a run of the definition has not ended yet: one run of a
 * definition at a time, checked in the transaction so two triggers at once cannot both pass; the
 * answer names that run (so a skipped start is logged in it without reading it again).
 */
export async function insertRun(db: Db, run: NewRun, now: Date): Promise<InsertedRun> {
  const id = newTimeOrderedId();
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const running = await trx
      .selectFrom('automation_runs')
      .select('id')
      .where('definition_id', '=', run.snapshot.definitionId)
      .where('status', 'in', ['Pending', 'Running'])
      .executeTakeFirst();
    if (running) return { id: null, runningId: running.id };
    const counter = await trx
      .updateTable('automation_definitions')
      .set((eb) => ({ run_counter: eb('run_counter', '+', 1) }))
      .where('id', '=', run.snapshot.definitionId)
      .returning('run_counter')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('automation_runs')
      .values({
        id,
        account_id: run.accountId,
        definition_id: run.snapshot.definitionId,
        run_number: counter.run_counter,
        name: run.snapshot.name,
        status: 'Pending',
        origin: run.origin,
        trigger_data: JSON.stringify(run.triggerData),
        snapshot: JSON.stringify(run.snapshot),
        rerun_of: run.rerunOf ?? null,
        resumed_from_step_id: run.resumedFromStepId ?? null,
        run_as_user_id: run.runAsUserId,
        created_at: at,
        cancel_requested: 0,
      })
      .execute();
    const carried = new Map((run.carried ?? []).map((c) => [c.stepId, c]));
    if (run.snapshot.steps.length > 0)
      await trx
        .insertInto('automation_step_runs')
        .values(
          run.snapshot.steps.map((step, position) => {
            const done = carried.get(step.id);
            return {
              run_id: id,
              step_id: step.id,
              position,
              name: step.name,
              kind: step.kind,
              status: done?.status ?? 'Pending',
              attempt: done?.attempt ?? 0,
              inputs: done?.inputs ?? null,
              output: done?.output ?? null,
              progress: null,
              started_at: done?.startedAt ?? null,
              ended_at: done?.endedAt ?? null,
              error: done?.error ?? null,
            };
          }),
        )
        .execute();
    return { id };
  });
}

export async function appendRunLog(
  db: Db,
  runId: string,
  stepId: string | null,
  level: AutomationLogLevel,
  message: string,
  now: Date,
): Promise<void> {
  await insertLog(db, runId, stepId, level, message, now.toISOString());
}

function parseObject(text: string | null): Record<string, InputValue> | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Record<string, InputValue>;
  } catch {
    return null;
  }
}

const seconds = (from: string | null, to: string | null) =>
  from && to ? Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000)) : null;

export function toRun(row: AutomationRunRow): AutomationRun {
  return {
    id: row.id,
    automationDefinitionId: row.definition_id,
    name: row.name,
    runNumber: row.run_number,
    status: row.status as AutomationRunStatus,
    origin: row.origin as RunOrigin,
    triggerData: parseObject(row.trigger_data) ?? {},
    rerunOf: row.rerun_of,
    resumedFromStepId: row.resumed_from_step_id,
    createdAt: row.created_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    durationInSeconds: seconds(row.started_at, row.ended_at),
    error: row.error,
  };
}

export async function runDetail(db: Db, row: AutomationRunRow): Promise<AutomationRunDetail> {
  const [steps, attempts] = await Promise.all([
    db.selectFrom('automation_step_runs').selectAll().where('run_id', '=', row.id).orderBy('position').execute(),
    db
      .selectFrom('automation_step_attempts')
      .selectAll()
      .where('run_id', '=', row.id)
      .orderBy('step_id')
      .orderBy('attempt')
      .execute(),
  ]);
  const byStep = new Map<string, StepAttempt[]>();
  for (const a of attempts) {
    const list = byStep.get(a.step_id) ?? [];
    list.push({
      attempt: a.attempt,
      status: a.status as StepRunStatus,
      startedAt: a.started_at,
      endedAt: a.ended_at,
      error: a.error,
      errorType: a.error_type as AttemptErrorType | null,
    });
    byStep.set(a.step_id, list);
  }
  return { ...toRun(row), steps: steps.map((s) => toStepRun(s, byStep.get(s.step_id) ?? [])) };
}

function toStepRun(row: AutomationStepRunRow, attempts: StepAttempt[]): StepRun {
  return {
    stepId: row.step_id,
    name: row.name,
    kind: row.kind as StepKind,
    position: row.position,
    status: row.status as StepRunStatus,
    attempt: row.attempt,
    inputs: parseObject(row.inputs),
    output: parseObject(row.output),
    startedAt: row.started_at,
    endedAt: row.ended_at,
    error: row.error,
    attempts,
    progress: row.progress,
  };
}

export async function runLogs(db: Db, runId: string): Promise<AutomationLogLine[]> {
  const rows = await db
    .selectFrom('automation_run_logs')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('id')
    .limit(5_000)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    runId: r.run_id,
    stepId: r.step_id,
    level: r.level as AutomationLogLevel,
    message: r.message,
    createdAt: r.created_at,
  }));
}

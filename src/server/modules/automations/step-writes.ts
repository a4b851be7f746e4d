/**
 * The writes every step of every run makes (its attempt started, its output saved, a log line),
 * as fixed SQL with bound parameters: the runner's own cost per step is mostly these few writes,
 * and building each through the query builder cost more than running it (benchmark, issue 15).
 * Each statement is prepared once (db/statement-cache.ts), and the writes of one moment share a
 * transaction: a commit costs more than the statements in it.
 */
import { CompiledQuery } from 'kysely';
import type { AutomationLogLevel } from '../../../shared/automations';
import type { Db } from '../../db/database';

type Executor = Pick<Db, 'executeQuery'>;
const run = (db: Executor, sql: string, parameters: unknown[]) => db.executeQuery(CompiledQuery.raw(sql, parameters));

const INSERT_ATTEMPT = `INSERT INTO automation_step_attempts (run_id, step_id, attempt, status, started_at)
  VALUES (?, ?, ?, 'Running', ?) ON CONFLICT DO NOTHING`;
const STEP_RUNNING = `UPDATE automation_step_runs SET status = 'Running', attempt = ?, inputs = ?,
  started_at = coalesce(started_at, ?), ended_at = NULL, error = NULL, progress = NULL
  WHERE run_id = ? AND step_id = ?`;
const ATTEMPT_COMPLETED = `UPDATE automation_step_attempts SET status = 'Completed', ended_at = ?, error = NULL,
  error_type = NULL WHERE run_id = ? AND step_id = ? AND attempt = ?`;
const STEP_FINISHED = `UPDATE automation_step_runs SET status = ?, output = ?, ended_at = ?, progress = NULL
  WHERE run_id = ? AND step_id = ?`;
const INSERT_LOG = `INSERT INTO automation_run_logs (run_id, step_id, level, message, created_at) VALUES (?, ?, ?, ?, ?)`;

/** The step's attempt begins (recorded unless it continues one a stopped worker left), with its resolved inputs. */
export async function stepStarted(
  db: Db,
  step: { runId: string; stepId: string; attempt: number },
  inputs: string,
  at: string,
  newAttempt: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (newAttempt) await run(trx, INSERT_ATTEMPT, [step.runId, step.stepId, step.attempt, at]);
    await run(trx, STEP_RUNNING, [step.attempt, inputs, at, step.runId, step.stepId]);
  });
}

/**
 * The attempt succeeded and the step's output is saved (with its log line): from here on it never
 * runs again. Skipped: the step had nothing to do (its output says `skipped: true`).
 */
export async function stepCompleted(
  db: Db,
  step: { runId: string; stepId: string; attempt: number },
  output: string,
  at: string,
  logLine: string,
  status: 'Completed' | 'Skipped' = 'Completed',
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await run(trx, ATTEMPT_COMPLETED, [at, step.runId, step.stepId, step.attempt]);
    await run(trx, STEP_FINISHED, [status, output, at, step.runId, step.stepId]);
    await run(trx, INSERT_LOG, [step.runId, step.stepId, 'INFO', logLine, at]);
  });
}

export async function insertLog(
  db: Db,
  runId: string,
  stepId: string | null,
  level: AutomationLogLevel,
  message: string,
  at: string,
): Promise<void> {
  await run(db, INSERT_LOG, [runId, stepId, level, message, at]);
}

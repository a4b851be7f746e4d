/** Writes of a run's rows: the run, its attempt and progress, its log lines, records per day. */
import { sql } from 'kysely';
import type { DatasetProgress, RunLogLevel, RunStatus } from '../../../shared/integrations';
import type { Db } from '../../db/database';
import { newId, newTimeOrderedId } from '../../db/ids';

export async function appendLog(db: Db, runId: string, level: RunLogLevel, message: string, at: Date): Promise<void> {
  await db
    .insertInto('integration_run_logs')
    .values({ run_id: runId, level, message: message.slice(0, 10_000), at: at.toISOString() })
    .execute();
}

export async function createRun(
  db: Db,
  integrationId: string,
  kind: 'Sync' | 'FullRefresh',
  fullRefreshDatasets: string[] | null,
  at: Date,
): Promise<string> {
  // Time-ordered, so runs created in the same instant still list newest first (the id breaks ties).
  const id = newTimeOrderedId();
  await db
    .insertInto('integration_runs')
    .values({
      id,
      integration_id: integrationId,
      kind,
      status: 'Pending',
      full_refresh_datasets: fullRefreshDatasets ? JSON.stringify(fullRefreshDatasets) : null,
      created_at: at.toISOString(),
      started_at: null,
      ended_at: null,
      records_processed: 0,
      bytes_processed: 0,
    })
    .execute();
  return id;
}

/** Marks the run Running and opens its attempt; returns the attempt id. */
export async function startAttempt(db: Db, runId: string, datasets: DatasetProgress[], at: Date): Promise<string> {
  const id = newId();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('integration_runs')
      .set({ status: 'Running', started_at: at.toISOString() })
      .where('id', '=', runId)
      .execute();
    const previous = await trx
      .selectFrom('integration_attempts')
      .select((eb) => eb.fn.max('attempt_number').as('n'))
      .where('run_id', '=', runId)
      .executeTakeFirst();
    await trx
      .insertInto('integration_attempts')
      .values({
        id,
        run_id: runId,
        attempt_number: Number(previous?.n ?? 0) + 1,
        status: 'Running',
        started_at: at.toISOString(),
        ended_at: null,
        progress: JSON.stringify({ state: 'Running', datasets }),
      })
      .execute();
  });
  return id;
}

export async function saveProgress(
  db: Db,
  runId: string,
  attemptId: string,
  datasets: DatasetProgress[],
  state: RunStatus = 'Running',
): Promise<void> {
  const records = datasets.reduce((sum, d) => sum + d.recordsProcessed, 0);
  const bytes = datasets.reduce((sum, d) => sum + d.bytesProcessed, 0);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('integration_attempts')
      .set({ progress: JSON.stringify({ state, datasets }) })
      .where('id', '=', attemptId)
      .execute();
    await trx
      .updateTable('integration_runs')
      .set({ records_processed: records, bytes_processed: bytes })
      .where('id', '=', runId)
      .execute();
  });
}

export async function finishRun(
  db: Db,
  runId: string,
  attemptId: string | null,
  status: RunStatus,
  at: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('integration_runs')
      .set({ status, ended_at: at.toISOString() })
      .where('id', '=', runId)
      .execute();
    if (attemptId === null) return;
    const attempt = await trx
      .selectFrom('integration_attempts')
      .select('progress')
      .where('id', '=', attemptId)
      .executeTakeFirst();
    const progress = attempt ? (JSON.parse(attempt.progress) as { datasets: DatasetProgress[] }) : { datasets: [] };
    await trx
      .updateTable('integration_attempts')
      .set({ status, ended_at: at.toISOString(), progress: JSON.stringify({ ...progress, state: status }) })
      .where('id', '=', attemptId)
      .execute();
  });
}

/** Adds records to the day's count (UTC) of the integration, for the home chart. */
export async function addRecordsPerDay(
  db: Db,
  accountId: string,
  integrationId: string,
  at: Date,
  count: number,
): Promise<void> {
  if (count <= 0) return;
  await db
    .insertInto('integration_records_per_day')
    .values({ account_id: accountId, integration_id: integrationId, day: at.toISOString().slice(0, 10), count })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'integration_id', 'day'])
        .doUpdateSet({ count: sql<number>`integration_records_per_day.count + excluded.count` }),
    )
    .execute();
}

/**
 * Runs a crash left Running (or waiting) are marked Failed with a log line saying so; their open
 * attempts end with them. Answers the runs it failed.
 */
export async function failInterruptedRuns(
  db: Db,
  at: Date,
): Promise<{ id: string; integration_id: string; status: string }[]> {
  const runs = await db
    .selectFrom('integration_runs')
    .select(['id', 'status', 'integration_id'])
    .where('status', 'in', ['Running', 'Pending'])
    .execute();
  for (const run of runs) {
    const attempt = await db
      .selectFrom('integration_attempts')
      .select('id')
      .where('run_id', '=', run.id)
      .where('status', '=', 'Running')
      .executeTakeFirst();
    await finishRun(db, run.id, attempt?.id ?? null, 'Failed', at);
    await appendLog(
      db,
      run.id,
      'ERROR',
      run.status === 'Running'
        ? 'The server stopped while this sync was running; the sync did not finish. Datasets it had not saved keep their previous rows.'
        : 'The server stopped before this sync started.',
      at,
    );
  }
  return runs;
}

import type { Kysely } from 'kysely';

/**
 * Automations: definitions with a trigger and ordered steps; runs that execute a snapshot of their
 * definition. A run is claimed by a worker with a lease (lease_owner, lease_expires_at) renewed by
 * a heartbeat; each step's output is saved (automation_step_runs) before the next starts, so a run
 * whose lease expired (a crash, a restart) is taken over and resumes at the first step without an
 * output. Side effects (an e-mail, an HTTP call, a destination write) are recorded under their
 * idempotency key (automation_side_effects) so a resumed step never repeats one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('automation_definitions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('trigger_type', 'text', (c) => c.notNull().defaultTo('Manual'))
    // JSON of the shared ScheduleSettings (Schedule trigger), null otherwise.
    .addColumn('schedule', 'text')
    // The schedule's 5-field UTC cron, derived from `schedule`.
    .addColumn('schedule_pattern', 'text')
    .addColumn('next_run_at', 'text')
    .addColumn('trigger_integration_id', 'text', (c) => c.references('integrations.id').onDelete('set null'))
    .addColumn('trigger_new_rows_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_timeout_seconds', 'integer', (c) => c.notNull().defaultTo(3_600))
    // The last run number given ('Run #n'); bumped in the transaction that creates a run.
    .addColumn('run_counter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('automation_definitions_account')
    .on('automation_definitions')
    .columns(['account_id', 'name'])
    .execute();
  await db.schema
    .createIndex('automation_definitions_due')
    .on('automation_definitions')
    .columns(['trigger_type', 'next_run_at'])
    .execute();

  await db.schema
    .createTable('automation_steps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('definition_id', 'text', (c) => c.notNull().references('automation_definitions.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('integration_id', 'text', (c) => c.references('integrations.id').onDelete('set null'))
    // JSON object: input name → value (placeholders allowed in text).
    .addColumn('inputs', 'text', (c) => c.notNull().defaultTo('{}'))
    // JSON of the shared StepPolicy.
    .addColumn('policy', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('automation_steps_definition')
    .on('automation_steps')
    .columns(['definition_id', 'position'])
    .execute();

  await db.schema
    .createTable('automation_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('definition_id', 'text', (c) => c.notNull().references('automation_definitions.id').onDelete('cascade'))
    .addColumn('run_number', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('trigger_data', 'text', (c) => c.notNull().defaultTo('{}'))
    // JSON: the definition (trigger, run timeout, steps with inputs and policies) this run executes.
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('rerun_of', 'text')
    .addColumn('resumed_from_step_id', 'text')
    // Whose rights the steps run with (the definition's creator, or who pressed Run now / Rerun).
    .addColumn('run_as_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('deadline_at', 'text')
    .addColumn('error', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    // A step waiting out its back-off: the run is not claimed again before this time.
    .addColumn('not_before', 'text')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('automation_runs_claim')
    .on('automation_runs')
    .columns(['status', 'lease_expires_at'])
    .execute();
  await db.schema
    .createIndex('automation_runs_definition')
    .on('automation_runs')
    .columns(['definition_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('automation_runs_account')
    .on('automation_runs')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('automation_step_runs')
    .addColumn('run_id', 'text', (c) => c.notNull().references('automation_runs.id').onDelete('cascade'))
    .addColumn('step_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: inputs with placeholders resolved (secrets masked); null before the step starts.
    .addColumn('inputs', 'text')
    // JSON: the saved output; set (non-null) means the step finished and is never run again.
    .addColumn('output', 'text')
    .addColumn('progress', 'text')
    .addColumn('started_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('automation_step_runs_pk', ['run_id', 'step_id'])
    .execute();

  await db.schema
    .createTable('automation_step_attempts')
    .addColumn('run_id', 'text', (c) => c.notNull().references('automation_runs.id').onDelete('cascade'))
    .addColumn('step_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('error', 'text')
    .addColumn('error_type', 'text')
    .addPrimaryKeyConstraint('automation_step_attempts_pk', ['run_id', 'step_id', 'attempt'])
    .execute();

  await db.schema
    .createTable('automation_run_logs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('run_id', 'text', (c) => c.notNull().references('automation_runs.id').onDelete('cascade'))
    .addColumn('step_id', 'text')
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('automation_run_logs_run').on('automation_run_logs').columns(['run_id', 'id']).execute();

  await db.schema
    .createTable('automation_side_effects')
    // run:step:attempt, the key the effect carries (Message-ID, Idempotency-Key, file name, upsert key).
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().references('automation_runs.id').onDelete('cascade'))
    .addColumn('step_id', 'text', (c) => c.notNull())
    // Started: recorded before the effect; Done: after it, with its result.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'automation_side_effects',
    'automation_run_logs',
    'automation_step_attempts',
    'automation_step_runs',
    'automation_runs',
    'automation_steps',
    'automation_definitions',
  ])
    await db.schema.dropTable(table).execute();
}

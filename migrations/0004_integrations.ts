import type { Kysely } from 'kysely';

/**
 * Integrations: definitions (with versioned JSON specifications), the account's integrations, their
 * datasets, sync runs with attempts and log lines, and records processed per day (home chart).
 * Rows of a dataset live in the account's warehouse, in the integration's own schema.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('integration_definitions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Built-ins have a stable key (upserted at start); custom ones have none.
    .addColumn('key', 'text', (c) => c.unique())
    .addColumn('connector_key', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('docs', 'text')
    .addColumn('is_custom', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('integration_definition_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('definition_id', 'text', (c) => c.notNull().references('integration_definitions.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('specification', 'text', (c) => c.notNull())
    .addColumn('is_latest', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('integration_definition_versions_number', ['definition_id', 'version'])
    .execute();

  await db.schema
    .createTable('integrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('definition_id', 'text', (c) => c.notNull().references('integration_definitions.id'))
    .addColumn('definition_version_id', 'text', (c) => c.notNull().references('integration_definition_versions.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('schema_name', 'text', (c) => c.notNull())
    // JSON; fields the specification marks secret are stored encrypted (secrets.ts).
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('webhook_token_hash', 'text', (c) => c.unique())
    .addColumn('webhook_token_encrypted', 'text')
    .addColumn('email_address', 'text', (c) => c.unique())
    .addColumn('sync_status', 'text', (c) => c.notNull())
    .addColumn('sync_frequency_type', 'text', (c) => c.notNull())
    .addColumn('sync_pattern', 'text')
    .addColumn('schedule', 'text', (c) => c.notNull())
    .addColumn('next_run_at', 'text')
    .addColumn('requires_reauthentication', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('discovery_status', 'text', (c) => c.notNull())
    .addColumn('discovery_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('integrations_schema', ['account_id', 'schema_name'])
    .execute();
  await db.schema.createIndex('integrations_due').on('integrations').columns(['sync_status', 'next_run_at']).execute();

  await db.schema
    .createTable('integration_datasets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('is_selected', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: the discovered properties, the supported sync and ingestion types, primary key, cursor.
    .addColumn('discovered', 'text', (c) => c.notNull())
    .addColumn('selected_properties', 'text', (c) => c.notNull())
    .addColumn('sync_type', 'text', (c) => c.notNull())
    .addColumn('ingestion_type', 'text', (c) => c.notNull())
    // JSON of the last successful read's state; null until then (and after a full refresh starts over).
    .addColumn('state', 'text')
    // JSON: the columns of the warehouse table as last written; null while it has no table.
    .addColumn('columns', 'text')
    .addColumn('row_count', 'integer')
    .addColumn('last_synced_at', 'text')
    .addUniqueConstraint('integration_datasets_name', ['integration_id', 'name'])
    .addUniqueConstraint('integration_datasets_table', ['integration_id', 'table_name'])
    .execute();

  await db.schema
    .createTable('integration_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // JSON list of the dataset names a full refresh starts over; null for a plain sync.
    .addColumn('full_refresh_datasets', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('records_processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_processed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('integration_runs_integration')
    .on('integration_runs')
    .columns(['integration_id', 'created_at'])
    .execute();
  await db.schema.createIndex('integration_runs_status').on('integration_runs').column('status').execute();

  await db.schema
    .createTable('integration_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().references('integration_runs.id').onDelete('cascade'))
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('progress', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integration_attempts_run').on('integration_attempts').column('run_id').execute();

  await db.schema
    .createTable('integration_run_logs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('run_id', 'text', (c) => c.notNull().references('integration_runs.id').onDelete('cascade'))
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integration_run_logs_run').on('integration_run_logs').column('run_id').execute();

  await db.schema
    .createTable('integration_records_per_day')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('integration_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_records_per_day_pk', ['account_id', 'integration_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'integration_records_per_day',
    'integration_run_logs',
    'integration_attempts',
    'integration_runs',
    'integration_datasets',
    'integrations',
    'integration_definition_versions',
    'integration_definitions',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

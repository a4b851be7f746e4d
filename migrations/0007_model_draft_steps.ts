import type { Kysely } from 'kysely';

/**
 * The steps of a model's draft, for Undo and Redo one change at a time. An undo step keeps the
 * draft's definition from before a change, a redo step the one an undo took back. They belong to
 * the draft version and go with it (publish, discard, delete). `created_draft` marks the change
 * that made the draft: undoing it removes the draft, back to the published version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('model_draft_steps')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('version_id', 'text', (c) => c.notNull().references('model_versions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('depends_on', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('model_draft_steps_version')
    .on('model_draft_steps')
    .columns(['version_id', 'kind', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('model_draft_steps').execute();
}

import type { Kysely } from 'kysely';

/**
 * Models and their versions. A version's definition (columns, joins, filters, sort, pivots) is one
 * JSON document: it is always read and written whole, and publishing copies it unchanged.
 * `depends_on` lists the model versions a version reads, so cycles are found without parsing JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('models')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('models_account').on('models').column('account_id').execute();

  await db.schema
    .createTable('model_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('model_id', 'text', (c) => c.notNull().references('models.id').onDelete('cascade'))
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('depends_on', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('model_versions_number', ['model_id', 'version_number'])
    .execute();
  await db.schema.createIndex('model_versions_model').on('model_versions').column('model_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('model_versions').execute();
  await db.schema.dropTable('models').execute();
}

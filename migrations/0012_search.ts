import type { Kysely } from 'kysely';

/**
 * Global search's state in the metadata store (the index itself is a file per account,
 * DATA_DIR/accounts/<id>/search.sqlite). `search_exclusions`: tables, or single columns, an admin
 * keeps out of search (private data); `column_key` null excludes the whole table.
 * `search_pending`: tables whose latest change is not indexed yet, since when (the lag), so work
 * queued when the process stopped is picked up at the next start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_exclusions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('table_type', 'text', (c) => c.notNull())
    .addColumn('table_id', 'text', (c) => c.notNull())
    .addColumn('column_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('search_exclusions_account')
    .on('search_exclusions')
    .columns(['account_id', 'table_type', 'table_id'])
    .execute();

  await db.schema
    .createTable('search_pending')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('table_type', 'text', (c) => c.notNull())
    .addColumn('table_id', 'text', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_pending_pk', ['account_id', 'table_type', 'table_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('search_pending').execute();
  await db.schema.dropTable('search_exclusions').execute();
}

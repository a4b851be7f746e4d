import type { Kysely } from 'kysely';

/**
 * Files (reports now; exports and uploads later): metadata here, contents in the file store
 * (DATA_DIR/files/<storage_key>). A report generated in the background is Pending with a progress
 * until Ready or Failed. Public links are rows of their own: a random token (the address), an
 * expiry (null: never), revoked_at, and their use; revoking then sharing again makes a new row,
 * so a new address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('Report'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('origin_entity_type', 'text', (c) => c.notNull())
    .addColumn('origin_entity_type_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_account_created').on('files').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('file_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('file_links_file').on('file_links').column('file_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_links').execute();
  await db.schema.dropTable('files').execute();
}

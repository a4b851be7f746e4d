import type { Kysely } from 'kysely';

/**
 * Static tables: names and columns here, rows in the account's warehouse (`static.t_<id>`).
 * Columns are rows of their own so a rename or reorder touches one row, not a JSON blob.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('static_tables')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('static_tables_account').on('static_tables').column('account_id').execute();

  await db.schema
    .createTable('static_table_columns')
    .addColumn('table_id', 'text', (c) => c.notNull().references('static_tables.id').onDelete('cascade'))
    .addColumn('column_key', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('static_table_columns_pk', ['table_id', 'column_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('static_table_columns').execute();
  await db.schema.dropTable('static_tables').execute();
}

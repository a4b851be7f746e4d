import type { Kysely } from 'kysely';

/**
 * Words users add for a table or a column so the Queries chat understands them ('revenue' for
 * amount, 'clients' for customers). One row per word and meaning, per account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('query_synonyms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('table_type', 'text', (c) => c.notNull())
    .addColumn('table_id', 'text', (c) => c.notNull())
    /** Null: the word names the table itself. */
    .addColumn('column_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('query_synonyms_account').on('query_synonyms').columns(['account_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('query_synonyms').execute();
}

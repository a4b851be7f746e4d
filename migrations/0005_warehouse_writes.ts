import type { Kysely } from 'kysely';

/**
 * Writes that change both stores (a warehouse table and its metadata here) while they are under
 * way: a row is made before the warehouse transaction and removed with the metadata change, so a
 * restart after a crash knows which writes to finish or forget (src/server/durability/).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('warehouse_writes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // The integration run the write belongs to, if any: its log says what became of the write.
    .addColumn('run_id', 'text')
    // The server process that made the row; recovery only takes rows of earlier processes.
    .addColumn('boot_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('warehouse_writes_account').on('warehouse_writes').column('account_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('warehouse_writes').execute();
}

/**
 * How a static table's writes keep the warehouse and the metadata store agreeing across a crash
 * (src/server/durability/write-journal.ts): what a write records, and what a crash may leave behind.
 */
import { z } from 'zod';
import { columnSchema } from '../../../shared/tables';
import type { Db } from '../../db/database';
import type { WriteJournal } from '../../durability/write-journal';
import type { WarehouseConnection } from '../../warehouse/types';
import { quoteQualified } from '../../warehouse/quote';
import { STATIC_SCHEMA } from './physical';
import { replaceColumns, touchTable } from './repo';

export const TABLE_SAVED = 'static-table.saved';
export const TABLE_DELETED = 'static-table.deleted';

const savedSchema = z.object({
  tableId: z.string(),
  accountId: z.string(),
  /** Set when the write made the table; null when it changed an existing one. */
  name: z.string().nullable(),
  columns: z.array(columnSchema),
  rowCount: z.number(),
  at: z.string(),
});
export type TableSaved = z.infer<typeof savedSchema>;

const deletedSchema = z.object({ tableId: z.string() });

export function registerStaticTableWrites(writes: WriteJournal): void {
  writes.register(TABLE_SAVED, {
    payload: savedSchema,
    async apply(db: Db, saved) {
      if (saved.name !== null) {
        await db
          .insertInto('static_tables')
          .values({
            id: saved.tableId,
            account_id: saved.accountId,
            name: saved.name,
            row_count: saved.rowCount,
            created_at: saved.at,
            modified_at: saved.at,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      }
      const exists = await db
        .selectFrom('static_tables')
        .select('id')
        .where('id', '=', saved.tableId)
        .executeTakeFirst();
      if (!exists) return; // deleted since: nothing to describe
      await replaceColumns(db, saved.tableId, saved.columns);
      await touchTable(db, saved.tableId, new Date(saved.at), saved.rowCount);
    },
  });
  writes.register(TABLE_DELETED, {
    payload: deletedSchema,
    async apply(db: Db, { tableId }) {
      await db.deleteFrom('static_tables').where('id', '=', tableId).execute();
    },
  });
}

/** `t_<id without dashes>`, and the `__next` / `__edit` copies a replace or an edit works on. */
const TABLE_NAME = /^t_([0-9a-f]{32})(__next|__edit)?$/;

/**
 * Drops what a crash left in the static schema: copies a replace or an edit made but never swapped
 * in, and tables whose creation never reached the metadata store.
 */
export async function sweepStaticLeftovers(db: Db, accountId: string, connection: WarehouseConnection) {
  const tables = await connection.all({
    sql: 'SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = $1',
    parameters: [STATIC_SCHEMA],
  });
  if (tables.length === 0) return;
  const known = new Set(
    (await db.selectFrom('static_tables').select('id').where('account_id', '=', accountId).execute()).map((r) =>
      r.id.replace(/-/g, ''),
    ),
  );
  for (const { table_name: name } of tables) {
    const match = TABLE_NAME.exec(String(name));
    if (!match || (match[2] === undefined && known.has(match[1] as string))) continue;
    await connection.run(`DROP TABLE IF EXISTS ${quoteQualified(STATIC_SCHEMA, String(name))}`);
  }
}

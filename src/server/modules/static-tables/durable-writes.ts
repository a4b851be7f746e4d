/**
 * How a static table's writes keep the warehouse and the metadata store agreeing across a crash
 * (src/server/durability/write-journal.ts): what a write records, and what a crash may leave behind.
 */
import { z } from 'zod';
import { staticColumnSchema } from '../../../shared/static-tables';
import type { Db } from '../../db/database';
import type { WriteJournal } from '../../durability/write-journal';
import type { WarehouseConnection } from '../../warehouse/types';
import { quoteQualified } from '../../warehouse/quote';
import { STATIC_SCHEMA } from './physical';
import { replaceColumns, setKept, touchTable } from './repo';

export const TABLE_SAVED = 'static-table.saved';
export const TABLE_DELETED = 'static-table.deleted';

const savedSchema = z.object({
  tableId: z.string(),
  accountId: z.string(),
  /** Set when the write made the table; null when it changed an existing one. */
  name: z.string().nullable(),
  columns: z.array(staticColumnSchema),
  rowCount: z.number(),
  at: z.string(),
  /**
   * The copy of the previous rows and columns kept for Undo (`t_<id>__kept`): set by an import or
   * a type change, null when a write dropped it, absent when the write leaves it as it was.
   */
  kept: z
    .object({ token: z.string(), columns: z.array(staticColumnSchema), rowCount: z.number() })
    .nullable()
    .optional(),
});
export type TableSaved = z.infer<typeof savedSchema>;
export { savedSchema as tableSavedSchema };

/** Records a saved table's metadata (its row, columns, count and kept copy), inside the write's SQLite transaction. */
export async function recordTableSaved(db: Db, saved: TableSaved): Promise<void> {
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
  const exists = await db.selectFrom('static_tables').select('id').where('id', '=', saved.tableId).executeTakeFirst();
  if (!exists) return; // deleted since: nothing to describe
  await replaceColumns(db, saved.tableId, saved.columns);
  await touchTable(db, saved.tableId, new Date(saved.at), saved.rowCount);
  if (saved.kept !== undefined) await setKept(db, saved.tableId, saved.kept);
}

const deletedSchema = z.object({ tableId: z.string() });

export function registerStaticTableWrites(writes: WriteJournal): void {
  writes.register(TABLE_SAVED, { payload: savedSchema, apply: recordTableSaved });
  writes.register(TABLE_DELETED, {
    payload: deletedSchema,
    async apply(db: Db, { tableId }) {
      await db.deleteFrom('static_tables').where('id', '=', tableId).execute();
    },
  });
}

/**
 * `t_<id without dashes>`, the `__next` / `__edit` / `__append` copies a replace, an edit or an
 * append works on, and the `__kept` copy an import or a type change keeps for Undo.
 */
const TABLE_NAME = /^t_([0-9a-f]{32})(__next|__edit|__append|__kept)?$/;

/**
 * Drops what a crash left in the static schema: copies a replace or an edit made but never swapped
 * in, kept copies the metadata no longer names (a later change dropped it), and tables whose
 * creation never reached the metadata store.
 */
export async function sweepStaticLeftovers(db: Db, accountId: string, connection: WarehouseConnection) {
  const tables = await connection.all({
    sql: 'SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = $1',
    parameters: [STATIC_SCHEMA],
  });
  if (tables.length === 0) return;
  const rows = await db
    .selectFrom('static_tables')
    .select(['id', 'kept_token'])
    .where('account_id', '=', accountId)
    .execute();
  const known = new Set(rows.map((r) => r.id.replace(/-/g, '')));
  const kept = new Set(rows.filter((r) => r.kept_token !== null).map((r) => r.id.replace(/-/g, '')));
  for (const { table_name: name } of tables) {
    const match = TABLE_NAME.exec(String(name));
    if (!match) continue;
    const id = match[1] as string;
    if (match[2] === undefined && known.has(id)) continue;
    if (match[2] === '__kept' && kept.has(id)) continue;
    await connection.run(`DROP TABLE IF EXISTS ${quoteQualified(STATIC_SCHEMA, String(name))}`);
  }
}

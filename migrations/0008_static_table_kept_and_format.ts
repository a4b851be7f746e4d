import type { Kysely } from 'kysely';

/**
 * Static tables keep the rows and columns a Replace or Append import (or a column's type change)
 * replaced, until the next change to the table, so the editor's Undo can bring them back: the copy
 * is `static.t_<id>__kept` in the warehouse, its columns and row count are here (`kept_*`), and
 * `kept_token` names that one copy (an Undo naming another is refused). Number columns also keep a
 * display format, as model columns do (JSON text of shared/models.ts `columnFormatSchema`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('static_tables').addColumn('kept_token', 'text').execute();
  await db.schema.alterTable('static_tables').addColumn('kept_columns', 'text').execute();
  await db.schema.alterTable('static_tables').addColumn('kept_row_count', 'integer').execute();
  await db.schema.alterTable('static_table_columns').addColumn('format', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('static_table_columns').dropColumn('format').execute();
  await db.schema.alterTable('static_tables').dropColumn('kept_row_count').execute();
  await db.schema.alterTable('static_tables').dropColumn('kept_columns').execute();
  await db.schema.alterTable('static_tables').dropColumn('kept_token').execute();
}

import { COLUMN_TYPES, type Column, type ColumnType } from '../../../shared/tables';
import type { Db } from '../../db/database';
import type { StaticTablesTable } from '../../db/schema';

export type StaticTableRow = StaticTablesTable;

/** The table if it belongs to the account; other accounts' ids read as missing. */
export async function findTable(db: Db, accountId: string, id: string): Promise<StaticTableRow | undefined> {
  return db
    .selectFrom('static_tables')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

function asColumnType(value: string): ColumnType {
  return (COLUMN_TYPES as readonly string[]).includes(value) ? (value as ColumnType) : 'Text';
}

export async function listColumns(db: Db, tableId: string): Promise<Column[]> {
  const rows = await db
    .selectFrom('static_table_columns')
    .selectAll()
    .where('table_id', '=', tableId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({
    columnKey: r.column_key,
    displayName: r.display_name,
    description: r.description,
    order: r.position,
    type: asColumnType(r.type),
  }));
}

/** Replaces the table's column list (positions follow the array order). */
export async function replaceColumns(db: Db, tableId: string, columns: Column[]): Promise<void> {
  await db.deleteFrom('static_table_columns').where('table_id', '=', tableId).execute();
  if (columns.length === 0) return;
  await db
    .insertInto('static_table_columns')
    .values(
      columns.map((c, i) => ({
        table_id: tableId,
        column_key: c.columnKey,
        display_name: c.displayName,
        description: c.description ?? null,
        position: i,
        type: c.type,
      })),
    )
    .execute();
}

export async function touchTable(db: Db, tableId: string, at: Date, rowCount?: number): Promise<void> {
  await db
    .updateTable('static_tables')
    .set({ modified_at: at.toISOString(), ...(rowCount === undefined ? {} : { row_count: rowCount }) })
    .where('id', '=', tableId)
    .execute();
}

import { columnFormatSchema, type ColumnFormat } from '../../../shared/models';
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

/** A static table's column: a column with, for numbers, the display format (null when none). */
export type StaticColumn = Column & { format?: ColumnFormat | null };

/** A stored format read back; a format that no longer parses is dropped (shown as none) rather than failing the table. */
function parseFormat(text: string | null): ColumnFormat | null {
  if (!text) return null;
  try {
    const parsed = columnFormatSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function listColumns(db: Db, tableId: string): Promise<StaticColumn[]> {
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
    // Only a set format is named, so a column reads as the spec's (columnKey ... type) otherwise.
    ...(r.format ? { format: parseFormat(r.format) } : {}),
  }));
}

/** Replaces the table's column list (positions follow the array order). */
export async function replaceColumns(db: Db, tableId: string, columns: StaticColumn[]): Promise<void> {
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
        format: c.format ? JSON.stringify(c.format) : null,
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

/** The copy an import or a type change kept for Undo: its token, columns and row count. */
export interface KeptCopy {
  token: string;
  columns: StaticColumn[];
  rowCount: number;
}

export function keptOf(table: StaticTableRow): KeptCopy | null {
  if (!table.kept_token || table.kept_columns === null) return null;
  return {
    token: table.kept_token,
    columns: JSON.parse(table.kept_columns) as StaticColumn[],
    rowCount: table.kept_row_count ?? 0,
  };
}

/** Records (or, with null, forgets) the kept copy of a table. */
export async function setKept(db: Db, tableId: string, kept: KeptCopy | null): Promise<void> {
  await db
    .updateTable('static_tables')
    .set({
      kept_token: kept?.token ?? null,
      kept_columns: kept ? JSON.stringify(kept.columns) : null,
      kept_row_count: kept?.rowCount ?? null,
    })
    .where('id', '=', tableId)
    .execute();
}

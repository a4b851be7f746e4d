/**
 * Synonyms users add for a table or a column (migration 0016), read into the catalogue. Writes
 * need a role that can write (checked by the caller's service).
 */
import type { TableType } from '../../../shared/tables';
import type { Db } from '../../db/database';
import { newId } from '../../db/ids';
import type { SynonymEntry } from './catalogue';

export async function listSynonyms(db: Db, accountId: string): Promise<SynonymEntry[]> {
  const rows = await db
    .selectFrom('query_synonyms')
    .select(['word', 'table_type', 'table_id', 'column_key'])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({
    word: r.word,
    tableType: r.table_type as TableType,
    tableId: r.table_id,
    columnKey: r.column_key,
  }));
}

export async function addSynonym(db: Db, accountId: string, entry: SynonymEntry, now: Date): Promise<string> {
  const id = newId();
  await db
    .insertInto('query_synonyms')
    .values({
      id,
      account_id: accountId,
      word: entry.word.trim().slice(0, 100),
      table_type: entry.tableType,
      table_id: entry.tableId,
      column_key: entry.columnKey,
      created_at: now.toISOString(),
    })
    .execute();
  return id;
}

export async function removeSynonym(db: Db, accountId: string, id: string): Promise<void> {
  await db.deleteFrom('query_synonyms').where('id', '=', id).where('account_id', '=', accountId).execute();
}

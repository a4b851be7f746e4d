import type { StaticTableSummary } from '../../../shared/static-tables';
import type { Paged } from '../../../shared/tables';
import type { Db } from '../../db/database';

export interface ListRequest {
  query: string;
  page: number;
  pageSize: number;
}

/** Text folded for matching: any letter's case (SQLite's lower() folds only A-Z), Unicode forms unified. */
export function foldName(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const byName = new Intl.Collator('en', { sensitivity: 'base' });

/**
 * The 'Tables' page: the account's tables whose name contains the query in any letter case, sorted
 * by name ignoring case and accents (then by id, so equal names keep one order), one page of them.
 * Names are filtered here rather than in SQL because SQLite cannot fold non-ASCII letters; an
 * account's tables are few enough to read their names at once.
 */
export async function listStaticTables(
  db: Db,
  accountId: string,
  { query, page, pageSize }: ListRequest,
): Promise<Paged<StaticTableSummary>> {
  const needle = foldName(query);
  const all = await db
    .selectFrom('static_tables')
    .select(['id', 'name', 'modified_at', 'row_count'])
    .where('account_id', '=', accountId)
    .execute();
  const matching = all
    .filter((t) => foldName(t.name).includes(needle))
    .sort((a, b) => byName.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const pageRows = matching.slice((page - 1) * pageSize, page * pageSize);
  const counts = pageRows.length
    ? await db
        .selectFrom('static_table_columns')
        .select(['table_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where(
          'table_id',
          'in',
          pageRows.map((t) => t.id),
        )
        .groupBy('table_id')
        .execute()
    : [];
  const columnCount = new Map(counts.map((c) => [c.table_id, Number(c.n)]));
  const count = matching.length;
  return {
    page,
    pageSize,
    count,
    totalPages: Math.max(1, Math.ceil(count / pageSize)),
    hasMore: page * pageSize < count,
    data: pageRows.map((t) => ({
      id: t.id,
      name: t.name,
      modifiedAt: t.modified_at,
      rowCount: t.row_count,
      columnCount: columnCount.get(t.id) ?? 0,
    })),
  };
}

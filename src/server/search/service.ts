/**
 * Global search: the caller's account's index answers (search-index.ts keeps it current), with
 * counts per table and column, a few sample hits with one full row each read from the warehouse,
 * and how far indexing lags. The admin part (global admins only): each account's index, rebuilds,
 * and tables or columns kept out of search.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { MESSAGES } from '../../shared/messages';
import { isGlobalAdmin } from '../../shared/roles';
import {
  SEARCH_MIN_QUERY_LENGTH,
  searchWords,
  snippetOf,
  type SearchExclusion,
  type SearchExclusionInput,
  type SearchGroup,
  type SearchHit,
  type SearchIndexAccount,
  type SearchResponse,
  type SearchTableOption,
} from '../../shared/search';
import type { TableType } from '../../shared/tables';
import type { AccountContext, Deps, UserContext } from '../context';
import { parseRoles } from '../db/database';
import { forbidden, notFound } from '../errors';
import { quoteIdentifier as q, quoteQualified } from '../warehouse/quote';
import { listSearchTables, searchableColumns, tableKey, type SearchTable } from './catalog';
import { queryIndex, valuesNamedIn, type SampleEntry } from './query';
import { searchIndexOf } from './search-index';

/** Tables shown in one answer (the most hits first); totalHits counts them all. */
const MAX_GROUPS = 20;

function assertGlobalAdmin(ctx: UserContext): void {
  if (!isGlobalAdmin(parseRoles(ctx.user.roles))) throw forbidden(MESSAGES.notAllowed);
}

const columnName = (table: SearchTable, columnKey: string) =>
  table.columns.find((c) => c.columnKey === columnKey)?.displayName ?? columnKey;

/** The spec's `<integration>.<schema>.<table>`: the dataset's integration, its schema and its table. */
const groupValue = (table: SearchTable) => `${table.groupId}.${table.schema}.${table.table}`;

/** One row holding the sample's value: by its row key when the table has one, else by the value. */
async function fullRecord(deps: Deps, accountId: string, table: SearchTable, sample: SampleEntry) {
  const select = table.columns.map((c) => q(c.columnKey)).join(', ');
  if (!select) return null;
  const relation = quoteQualified(table.schema, table.table);
  const query =
    table.rowKey && sample.sampleRow !== null
      ? {
          sql: `SELECT ${select} FROM ${relation} WHERE ${q(table.rowKey)} = $1 LIMIT 1`,
          parameters: [sample.sampleRow],
        }
      : {
          sql: `SELECT ${select} FROM ${relation} WHERE CAST(${q(sample.columnKey)} AS VARCHAR) = $1 LIMIT 1`,
          parameters: [sample.value],
        };
  try {
    const [row] = await deps.warehouse.forAccount(accountId).all(query);
    return row ? { ...row } : null;
  } catch {
    // Gone since it was indexed (the table was replaced): the hit still shows its value.
    return null;
  }
}

export function createSearchService(deps: Deps) {
  const { db } = deps;
  const index = searchIndexOf(deps);

  async function excludedKeys(accountId: string) {
    const rows = await db
      .selectFrom('search_exclusions')
      .select(['table_type', 'table_id', 'column_key'])
      .where('account_id', '=', accountId)
      .execute();
    return new Set(rows.map((r) => `${tableKey(r.table_type as TableType, r.table_id)}|${r.column_key ?? ''}`));
  }

  async function indexAccount(accountId: string): Promise<SearchIndexAccount> {
    const account = await db
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!account) throw notFound('Account not found.');
    const status = await index.status(accountId);
    const reader = index.reader(accountId);
    let documents = 0;
    let tables = 0;
    if (reader) {
      try {
        const row = reader.prepare('SELECT coalesce(sum(documents), 0) AS d, count(*) AS t FROM tables').get() as {
          d: number;
          t: number;
        };
        documents = row.d;
        tables = row.t;
      } catch {
        // Being created: nothing in it yet.
      }
    }
    const file = index.file(accountId);
    const sizeBytes = [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
    return {
      accountId,
      accountName: account.name,
      sizeBytes,
      documents,
      tables,
      lastIndexedAt: status.lastIndexedAt,
      pending: status.pending,
      lagSeconds: status.lagSeconds,
      building: index.building(accountId),
    };
  }

  return {
    index,

    async search(ctx: AccountContext, query: string): Promise<SearchResponse> {
      const text = query.trim();
      const words = searchWords(text);
      const status = await index.status(ctx.accountId);
      const indexing = { pending: status.pending, lagSeconds: status.lagSeconds, lastIndexedAt: status.lastIndexedAt };
      const empty = { query: text, totalHits: 0, complete: true, groups: [], indexing };
      const reader = index.reader(ctx.accountId);
      if (text.length < SEARCH_MIN_QUERY_LENGTH || words.length === 0 || !reader) return empty;
      const answer = queryIndex(reader, words);
      // Only tables the account still has, and nothing excluded since it was indexed.
      const tables = new Map((await listSearchTables(db, ctx.accountId)).map((t) => [t.key, t]));
      const excluded = await excludedKeys(ctx.accountId);
      const shown = (tableKeyOf: string, columnKey: string) =>
        tables.has(tableKeyOf) && !excluded.has(`${tableKeyOf}|`) && !excluded.has(`${tableKeyOf}|${columnKey}`);
      const byTable = new Map<string, { count: number; columns: Map<string, number> }>();
      let gone = false;
      for (const c of answer.counts) {
        if (!tables.has(c.tableKey)) gone = true;
        if (!shown(c.tableKey, c.columnKey)) continue;
        const entry = byTable.get(c.tableKey) ?? { count: 0, columns: new Map<string, number>() };
        entry.count += c.hits;
        entry.columns.set(c.columnKey, (entry.columns.get(c.columnKey) ?? 0) + c.hits);
        byTable.set(c.tableKey, entry);
      }
      // Entries of a deleted table: removed from the index in the background.
      if (gone) void index.removeGone(ctx.accountId).catch(() => undefined);
      const ranked = [...byTable].sort((a, b) => b[1].count - a[1].count).slice(0, MAX_GROUPS);
      const groups: SearchGroup[] = await Promise.all(
        ranked.map(async ([key, entry]) => {
          const table = tables.get(key) as SearchTable;
          const samples = answer.samples.filter((s) => s.tableKey === key && shown(key, s.columnKey));
          const sampleHits: SearchHit[] = await Promise.all(
            samples.map(async (s) => ({
              columnKey: s.columnKey,
              columnName: columnName(table, s.columnKey),
              value: s.value,
              count: s.count,
              snippet: snippetOf(s.value, words),
              document: { fullRecord: await fullRecord(deps, ctx.accountId, table, s) },
            })),
          );
          return {
            value: groupValue(table),
            count: entry.count,
            sampleHits,
            tableType: table.type,
            tableId: table.id,
            tableName: table.name,
            groupId: table.groupId,
            groupName: table.groupName,
            columns: [...entry.columns]
              .sort((a, b) => b[1] - a[1])
              .map(([columnKey, count]) => ({ columnKey, columnName: columnName(table, columnKey), count })),
          };
        }),
      );
      const totalHits = [...byTable.values()].reduce((sum, e) => sum + e.count, 0);
      return { query: text, totalHits, complete: answer.complete, groups, indexing };
    },

    // ---- Admin (global admins only) ------------------------------------------------------------------

    async listIndexes(ctx: UserContext): Promise<SearchIndexAccount[]> {
      assertGlobalAdmin(ctx);
      const accounts = await db.selectFrom('accounts').select('id').orderBy('name').execute();
      return Promise.all(accounts.map((a) => indexAccount(a.id)));
    },

    async rebuild(ctx: UserContext, accountId: string): Promise<SearchIndexAccount> {
      assertGlobalAdmin(ctx);
      await indexAccount(accountId);
      await index.rebuild(accountId);
      return indexAccount(accountId);
    },

    async tableOptions(ctx: UserContext, accountId: string): Promise<SearchTableOption[]> {
      assertGlobalAdmin(ctx);
      const tables = await listSearchTables(db, accountId);
      return tables.map((t) => ({
        tableType: t.type,
        tableId: t.id,
        tableName: t.name,
        groupName: t.groupName,
        columns: searchableColumns(t.columns).map((c) => ({ columnKey: c.columnKey, columnName: c.displayName })),
      }));
    },

    async exclusions(ctx: UserContext, accountId: string): Promise<SearchExclusion[]> {
      assertGlobalAdmin(ctx);
      const rows = await db
        .selectFrom('search_exclusions')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
      const tables = new Map((await listSearchTables(db, accountId)).map((t) => [t.key, t]));
      return rows.map((r) => {
        const table = tables.get(tableKey(r.table_type as TableType, r.table_id));
        return {
          accountId,
          tableType: r.table_type as TableType,
          tableId: r.table_id,
          tableName: table?.name ?? r.table_id,
          columnKey: r.column_key,
          columnName: r.column_key === null ? null : table ? columnName(table, r.column_key) : r.column_key,
        };
      });
    },

    async exclude(ctx: UserContext, input: SearchExclusionInput): Promise<SearchExclusion[]> {
      assertGlobalAdmin(ctx);
      const tables = await listSearchTables(db, input.accountId);
      const table = tables.find((t) => t.key === tableKey(input.tableType, input.tableId));
      if (!table) throw notFound('Table not found.');
      if (input.columnKey !== null && !table.columns.some((c) => c.columnKey === input.columnKey))
        throw notFound('Column not found.');
      const existing = await db
        .selectFrom('search_exclusions')
        .select('id')
        .where('account_id', '=', input.accountId)
        .where('table_type', '=', input.tableType)
        .where('table_id', '=', input.tableId)
        .where('column_key', input.columnKey === null ? 'is' : '=', input.columnKey)
        .executeTakeFirst();
      if (!existing) {
        await db
          .insertInto('search_exclusions')
          .values({
            id: randomUUID(),
            account_id: input.accountId,
            table_type: input.tableType,
            table_id: input.tableId,
            column_key: input.columnKey,
            created_at: deps.clock().toISOString(),
          })
          .execute();
      }
      // Its entries leave the index (they are already left out of answers).
      await index.queue(input.accountId, input.tableType, input.tableId);
      return this.exclusions(ctx, input.accountId);
    },

    async include(ctx: UserContext, input: SearchExclusionInput): Promise<SearchExclusion[]> {
      assertGlobalAdmin(ctx);
      await db
        .deleteFrom('search_exclusions')
        .where('account_id', '=', input.accountId)
        .where('table_type', '=', input.tableType)
        .where('table_id', '=', input.tableId)
        .where('column_key', input.columnKey === null ? 'is' : '=', input.columnKey)
        .execute();
      await index.queue(input.accountId, input.tableType, input.tableId);
      return this.exclusions(ctx, input.accountId);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

/**
 * For the Queries chat: the distinct values of text columns that a question names (every word of
 * the value is a word of the text: 'orders from France' names 'France'), most rows first, from the
 * account's index. Tables the account no longer has and excluded columns are left out.
 */
export async function searchValues(
  deps: Deps,
  accountId: string,
  text: string,
  limit: number,
): Promise<
  { table: { type: TableType; id: string; name: string }; columnKey: string; value: string; count: number }[]
> {
  const reader = searchIndexOf(deps).reader(accountId);
  if (!reader) return [];
  const entries = valuesNamedIn(reader, searchWords(text), limit * 4);
  const tables = new Map((await listSearchTables(deps.db, accountId)).map((t) => [t.key, t]));
  const excluded = await deps.db
    .selectFrom('search_exclusions')
    .select(['table_type', 'table_id', 'column_key'])
    .where('account_id', '=', accountId)
    .execute();
  const out = new Set(excluded.map((r) => `${tableKey(r.table_type as TableType, r.table_id)}|${r.column_key ?? ''}`));
  return entries
    .filter((e) => tables.has(e.tableKey) && !out.has(`${e.tableKey}|`) && !out.has(`${e.tableKey}|${e.columnKey}`))
    .slice(0, limit)
    .map((e) => {
      const table = tables.get(e.tableKey) as SearchTable;
      return {
        table: { type: table.type, id: table.id, name: table.name },
        columnKey: e.columnKey,
        value: e.value,
        count: e.count,
      };
    });
}

/**
 * The account's Queries synonyms: listed by any member, added and removed by writers only. A
 * synonym must name one of the account's tables (and a column it has).
 */
import type { QuerySynonym, QuerySynonymInput } from '../../../shared/query-synonyms';
import type { AccountContext, Deps } from '../../context';
import { badInput } from '../../errors';
import { requireWriter } from '../accounts/access';
import type { createTablesService } from '../tables/service';
import { addSynonym, removeSynonym } from './synonyms';

export function createQuerySynonymsService(deps: Deps, tables: ReturnType<typeof createTablesService>) {
  return {
    async list(ctx: AccountContext): Promise<QuerySynonym[]> {
      const rows = await deps.db
        .selectFrom('query_synonyms')
        .select(['id', 'word', 'table_type', 'table_id', 'column_key'])
        .where('account_id', '=', ctx.accountId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        word: r.word,
        tableType: r.table_type as QuerySynonym['tableType'],
        tableId: r.table_id,
        columnKey: r.column_key,
      }));
    },

    async add(ctx: AccountContext, input: QuerySynonymInput): Promise<{ id: string }> {
      requireWriter(ctx);
      // Another account's table reads as missing (404) here.
      const table = await tables.get(ctx, input.tableType, input.tableId);
      if (input.columnKey !== null && !table.columns.some((c) => c.columnKey === input.columnKey)) {
        throw badInput(`${table.name} has no column ${input.columnKey}.`);
      }
      return { id: await addSynonym(deps.db, ctx.accountId, input, deps.clock()) };
    },

    async remove(ctx: AccountContext, id: string): Promise<void> {
      requireWriter(ctx);
      await removeSynonym(deps.db, ctx.accountId, id);
    },
  };
}

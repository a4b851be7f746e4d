/**
 * The catalogue of one account (catalogue.ts): every table the tables service lists, its columns,
 * the synonyms users added (synonyms.ts) and the distinct values of small text columns (values.ts).
 */
import type { TableSummary } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { catalogueColumn, catalogueTable, type Catalogue } from './catalogue';
import { listSynonyms } from './synonyms';
import { resolveRelation } from './targets';
import { distinctValues } from './values';

/** Bumped per account when a sync finishes: values read before are stale. */
const generations = new Map<string, number>();
const listening = new WeakSet<Deps['events']>();

function generation(deps: Deps, accountId: string): number {
  if (!listening.has(deps.events)) {
    listening.add(deps.events);
    deps.events.on('syncFinished', (event) => {
      generations.set(event.accountId, (generations.get(event.accountId) ?? 0) + 1);
    });
  }
  return generations.get(accountId) ?? 0;
}

export async function loadCatalogue(
  deps: Deps,
  ctx: AccountContext,
  list: (ctx: AccountContext) => Promise<TableSummary[]>,
): Promise<Catalogue> {
  const summaries = await list(ctx);
  const synonyms = await listSynonyms(deps.db, ctx.accountId);
  const gen = generation(deps, ctx.accountId);
  // A model is a view over other tables: its values are read again each minute.
  const minute = Math.floor(deps.clock().getTime() / 60_000);
  const tables = await Promise.all(
    summaries.map(async (summary) => {
      let values = new Map<string, string[]>();
      try {
        const relation = await resolveRelation(deps, ctx, summary.type, summary.id);
        const stamp = summary.type === 'ModelVersion' ? gen * 1e9 + minute : gen;
        values = await distinctValues(deps, ctx, summary, relation, stamp);
      } catch {
        // A table that cannot be read now (a broken model) still has names to match.
      }
      const mine = synonyms.filter((s) => s.tableType === summary.type && s.tableId === summary.id);
      const columns = summary.columns.map((c) =>
        catalogueColumn(c.columnKey, c.displayName, c.type, {
          synonyms: mine.filter((s) => s.columnKey === c.columnKey).map((s) => s.word),
          values: values.get(c.columnKey) ?? [],
        }),
      );
      return catalogueTable(
        { type: summary.type, id: summary.id, name: summary.name, groupName: summary.groupName },
        columns,
        mine.filter((s) => s.columnKey === null).map((s) => s.word),
      );
    }),
  );
  return { tables };
}

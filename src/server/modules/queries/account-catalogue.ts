/**
 * The catalogue of one account (catalogue.ts): every table the tables service lists, its columns,
 * the synonyms users added (synonyms.ts), the distinct values of small text columns (values.ts), and
 * the values of any text column the search index finds named in the question (search/service.ts).
 */
import type { TableSummary } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { catalogueColumn, catalogueTable, type Catalogue } from './catalogue';
import { listSynonyms } from './synonyms';
import { resolveRelation } from './targets';
import { distinctValues } from './values';
import { searchValues } from '../../search/service';

/** Values the search index finds named in a question (any column, however many values it has). */
const SEARCHED_VALUES = 50;

async function valuesNamedIn(deps: Deps, accountId: string, question: string) {
  try {
    return await searchValues(deps, accountId, question, SEARCHED_VALUES);
  } catch {
    // The index may be building or missing: the small columns' own values still answer.
    return [];
  }
}

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
  question = '',
): Promise<Catalogue> {
  const summaries = await list(ctx);
  const searched = question ? await valuesNamedIn(deps, ctx.accountId, question) : [];
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
          values: [
            ...new Set([
              ...(values.get(c.columnKey) ?? []),
              ...searched
                .filter(
                  (v) => v.table.type === summary.type && v.table.id === summary.id && v.columnKey === c.columnKey,
                )
                .map((v) => v.value),
            ]),
          ],
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

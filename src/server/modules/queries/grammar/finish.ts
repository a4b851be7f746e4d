/** The draft as the final query: the period as a filter, rank → sort and limit, defaults. */
import type { CatalogueTable } from '../catalogue';
import type { Period } from '../periods';
import type { PlainQuery } from '../plain-query';
import { readingOf } from '../reading';
import { defaultDate, defaultNumber, isDate, isNumber } from './columns';
import type { Draft } from './reader';

/** Most rows a list of rows shows without 'top N'. */
const LIST_LIMIT = 100;

/** The draft as the final query: rank → sort and limit, defaults for what was left open. */
export function finish(draft: Draft, table: CatalogueTable, period: Period | null, question: string): PlainQuery {
  const filters = [...draft.filters];
  if (period) {
    const col = draft.dateColumn ?? defaultDate(table, question, period.label);
    draft.dateColumn = col;
    if (period.from && period.to)
      filters.push({ column: col.key, operator: 'Between', value: period.from, value2: period.to });
    else if (period.from)
      filters.push({ column: col.key, operator: 'GreaterThanOrEquals', value: period.from, value2: null });
    else if (period.to) filters.push({ column: col.key, operator: 'LessThanOrEquals', value: period.to, value2: null });
  }
  let measures = draft.measures;
  let sort = draft.sort;
  let limit = draft.limit;
  const groups = draft.groups;
  const rank = draft.rank;
  if (rank && groups.length === 0) {
    // 'which city has the most customers': the column asked for is the group.
    const named = draft.select.map((key) => table.columns.find((c) => c.key === key)).find((c) => c && !isNumber(c));
    if (named) {
      groups.push({ column: named.key, grain: isDate(named) ? 'day' : null });
      draft.select = draft.select.filter((key) => key !== named.key);
    }
  }
  if (rank) {
    limit = rank.n;
    if (groups.length > 0) {
      if (measures.length === 0) measures = [{ function: 'Count', column: null }];
      sort = { by: 'measure', index: 0, column: null, direction: rank.direction };
    } else if (measures.length > 0 && !sort) {
      // 'top 5 amounts': the rows with the largest value.
      const m = measures[0]!;
      if (m.column) {
        sort = { by: 'column', index: 0, column: m.column, direction: rank.direction };
        measures = [];
      }
    } else if (!sort) {
      const col = defaultNumber(table, question, 'top');
      sort = { by: 'column', index: 0, column: col.key, direction: rank.direction };
    }
  } else if (groups.length > 0 && measures.length === 0) {
    measures = [{ function: 'Count', column: null }];
  }
  if (measures.length === 0 && groups.length === 0) limit ??= LIST_LIMIT;
  if (measures.length > 0 && sort?.by === 'column') {
    const at = groups.findIndex((g) => g.column === sort!.column);
    sort = at === 0 ? { by: 'group', index: 0, column: null, direction: sort.direction } : null;
  }
  const select = measures.length === 0 ? [...new Set(draft.select)] : [];
  const body = {
    measures,
    groupBy: groups,
    filters,
    sort,
    limit,
    select: select.length > 0 && sort?.column && !select.includes(sort.column) ? [...select, sort.column] : select,
  };
  const query: PlainQuery = {
    version: 1,
    table: { type: table.type, id: table.id, name: table.name },
    ...body,
    reading: '',
  };
  return { ...query, reading: readingOf(query, table, period) };
}

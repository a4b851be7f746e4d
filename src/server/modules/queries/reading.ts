/**
 * How a query reads in words, said with every answer: 'Sum of amount by month of ordered_at,
 * ordered_at in last quarter (2025-04-01 to 2025-06-30), from orders'.
 */
import type { CatalogueTable } from './catalogue';
import { groupLabel, measureLabel } from './compile';
import { describeRange, type Period } from './periods';
import type { PlainQuery, QueryFilter } from './plain-query';

const OPERATOR_WORDS: Record<string, string> = {
  Equals: 'is',
  NotEquals: 'is not',
  GreaterThan: 'over',
  LessThan: 'under',
  GreaterThanOrEquals: 'at least',
  LessThanOrEquals: 'at most',
  Contains: 'contains',
  NotContains: 'does not contain',
};

function filterText(filter: QueryFilter, name: (key: string) => string): string {
  const column = name(filter.column);
  switch (filter.operator) {
    case 'Between':
      return `${column} between ${String(filter.value)} and ${String(filter.value2)}`;
    case 'Empty':
      return `${column} is empty`;
    case 'Exists':
      return `${column} is not empty`;
    default:
      return `${column} ${OPERATOR_WORDS[filter.operator] ?? filter.operator} ${String(filter.value)}`;
  }
}

export function readingOf(
  query: PlainQuery,
  table: Pick<CatalogueTable, 'columns'>,
  period: Period | null = null,
): string {
  const name = (key: string) => table.columns.find((c) => c.key === key)?.name ?? key;
  const parts: string[] = [];
  let head =
    query.measures.length > 0
      ? query.measures.map((m) => measureLabel(query, m, name)).join(' and ')
      : query.select.length > 0
        ? `${query.select.map(name).join(', ')} of ${query.table.name}`
        : `Rows of ${query.table.name}`;
  if (query.groupBy.length > 0) head += ` by ${query.groupBy.map((g) => groupLabel(g, name)).join(' and ')}`;
  parts.push(head);
  const periodFilter = period
    ? query.filters.find(
        (f) =>
          (f.operator === 'Between' && f.value === period.from && f.value2 === period.to) ||
          (f.operator === 'GreaterThanOrEquals' && f.value === period.from && !period.to) ||
          (f.operator === 'LessThanOrEquals' && f.value === period.to && !period.from),
      )
    : undefined;
  for (const filter of query.filters) {
    if (filter === periodFilter && period) {
      const joint = /^(since|after|before|until|till|from|between|starting|prior|up to)\b/.test(period.label)
        ? ''
        : 'in ';
      parts.push(`${name(filter.column)} ${joint}${period.label} (${describeRange(period)})`);
    } else parts.push(filterText(filter, name));
  }
  const sort = query.sort;
  if (sort && query.limit !== null && query.measures.length > 0 && sort.by === 'measure') {
    const measure = query.measures[sort.index];
    const by = measure ? measureLabel(query, measure, name) : '';
    parts.push(`${sort.direction === 'Descending' ? 'top' : 'bottom'} ${query.limit} by ${by}`);
  } else if (sort) {
    const column =
      sort.by === 'column' && sort.column
        ? name(sort.column)
        : sort.by === 'group' && query.groupBy[0]
          ? groupLabel(query.groupBy[0], name)
          : '';
    parts.push(`sorted by ${column} ${sort.direction === 'Descending' ? 'descending' : 'ascending'}`);
    if (query.limit !== null) parts.push(`first ${query.limit}`);
  } else if (query.limit !== null && query.measures.length > 0) parts.push(`first ${query.limit}`);
  parts.push(`from ${query.table.name}`);
  return parts.join(', ');
}

/** Comparisons: 'over 100', 'amount at least 50', '5 or more', 'between 10 and 20', 'not over 5'. */
import type { FilterOperator } from '../../../../shared/tables';
import type { CatalogueColumn } from '../catalogue';
import { defaultNumber, isNumber } from './columns';
import type { Reader } from './reader';

/** The words of an operator, for a message about the number it compares. */
const COMPARE_WORD: Record<string, string> = {
  GreaterThan: 'over',
  LessThan: 'under',
  GreaterThanOrEquals: 'at least',
  LessThanOrEquals: 'at most',
  Equals: 'equal to',
  Between: 'between',
};

/** The comparison a 'not' before it turns it into ('not over 5' → at most 5). */
const NEGATED: Record<string, FilterOperator> = {
  GreaterThan: 'LessThanOrEquals',
  LessThan: 'GreaterThanOrEquals',
  GreaterThanOrEquals: 'LessThan',
  LessThanOrEquals: 'GreaterThan',
  Equals: 'NotEquals',
  Between: 'Between',
};

/** Reads the comparison keyword at i into a filter on a number column. */
export function readComparison(r: Reader, i: number, op: string): void {
  const { items, table, question, draft, used, next, prev } = r;
  const j = next(i);
  const first = items[j];
  // '5 or more': the number came first.
  const before = items[prev(i)];
  let low: number | null = null;
  let high: number | null = null;
  let end = j;
  if (first?.k === 'num') {
    used.add(first);
    low = first.n;
    if (op === 'Between') {
      const joint = items[next(j)];
      const second = items[next(next(j))];
      if (joint?.k === 'kw' && joint.kw.kind === 'and' && second?.k === 'num') {
        used.add(joint);
        used.add(second);
        high = second.n;
        end = next(next(j));
      }
    }
  } else if (before?.k === 'num' && (op === 'GreaterThanOrEquals' || op === 'LessThanOrEquals')) {
    low = before.n;
    draft.ignored = draft.ignored.filter((w) => w !== before.m.text);
  }
  if (low === null || (op === 'Between' && high === null)) {
    draft.ignored.push(items[i]!.m.text);
    return;
  }
  // The column: named just before ('amount over 100'), after ('over 100 in amount'), else the
  // number being added up, else the table's main number.
  let col: CatalogueColumn | null = null;
  const p = prev(i);
  const candidate = items[p];
  const beforeNumber = before?.k === 'num' ? items[prev(prev(i))] : undefined;
  if (candidate?.k === 'col' && isNumber(candidate.col)) col = candidate.col;
  else if (beforeNumber?.k === 'col' && isNumber(beforeNumber.col)) col = beforeNumber.col;
  else {
    const later = items[next(end)];
    if (later?.k === 'col' && isNumber(later.col)) {
      used.add(later);
      col = later.col;
    }
  }
  if (!col) {
    const measured = draft.measures.find((m) => m.column !== null);
    col = measured ? (table.columns.find((c) => c.key === measured.column) ?? null) : null;
    if (col && !isNumber(col)) col = null;
  }
  col ??= defaultNumber(table, question, `${COMPARE_WORD[op] ?? op} ${low}`);
  const operator: FilterOperator = r.negate ? NEGATED[op]! : (op as FilterOperator);
  r.negate = false;
  draft.filters.push({ column: col.key, operator, value: low, value2: high });
}

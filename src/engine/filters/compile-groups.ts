/**
 * Filter groups to one WHERE condition.
 *
 * Within a group each filter's conditionOperator joins it to the filter before it (default Or; the
 * first filter's is ignored). And binds tighter than Or, as in SQL and arithmetic: `a Or b And c`
 * is `a OR (b AND c)`. So a group is split at every Or into runs of And-joined filters, and the
 * runs are OR-ed, each level in explicit parentheses. Groups are AND-ed; empty groups add nothing.
 */
import type { ColumnScope } from '../columns';
import type { FilterGroupSpec } from '../ir';
import type { Expr } from '../sql-ast';
import { compileFilter } from './compile-filter';

export function compileFilterGroups(groups: readonly FilterGroupSpec[], scope: ColumnScope): Expr | null {
  const conditions: Expr[] = [];
  groups.forEach((group, groupIndex) => {
    const runs: Expr[][] = [];
    group.filters.forEach((filter, filterIndex) => {
      const condition = compileFilter(filter, scope, ['filterGroups', groupIndex, 'filters', filterIndex]);
      const current = runs.at(-1);
      if (current && filter.conditionOperator === 'And') current.push(condition);
      else runs.push([condition]);
    });
    if (runs.length === 0) return;
    const ands = runs.map((run): Expr => (run.length === 1 ? run[0]! : { kind: 'and', items: run }));
    conditions.push(ands.length === 1 ? ands[0]! : { kind: 'or', items: ands });
  });
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? conditions[0]! : { kind: 'and', items: conditions };
}

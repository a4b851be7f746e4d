/**
 * ORDER BY for a table query: the requested columns in order (a column named twice counts once),
 * nulls last in both directions, then a tie-break that makes the order total so OFFSET paging never
 * repeats or skips a row: the row key, or, without one, every selected column not sorted yet
 * (rows equal in all of them are indistinguishable, so any order of them pages the same).
 */
import type { ColumnScope } from './columns';
import { ModelError } from './errors';
import type { SortSpec } from './ir';
import type { OrderItem } from './sql-ast';

export function compileOrderBy(
  sorting: readonly SortSpec[],
  selected: readonly string[],
  scope: ColumnScope,
): OrderItem[] {
  const items: OrderItem[] = [];
  const sorted = new Set<string>();
  const add = (name: string, order: OrderItem['order']): void => {
    if (sorted.has(name)) return;
    sorted.add(name);
    items.push({ expr: { kind: 'column', name }, order });
  };

  sorting.forEach((sort, index) => {
    const name = scope.resolveName(sort.columnKey, ['sorting', index, 'columnKey']);
    const direction = sort.direction ?? 'Ascending';
    if (direction !== 'Ascending' && direction !== 'Descending') {
      throw new ModelError(`Sort on "${sort.columnKey}": unknown direction "${String(direction)}"`, 'invalid_sorting', [
        'sorting',
        index,
        'direction',
      ]);
    }
    add(name, direction === 'Descending' ? 'desc' : 'asc');
  });

  if (scope.rowKey !== null) add(scope.rowKey, 'asc');
  else selected.forEach((name) => add(name, 'asc'));
  return items;
}

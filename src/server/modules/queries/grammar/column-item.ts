/** A value ('Paris', 'urgent') becomes an equality filter; a column a filter, measure, group or field. */
import { isDate, isIdLike, isNumber } from './columns';
import type { Item } from './items';
import { measureFor, type Reader } from './reader';

export function readValue(r: Reader, item: Extract<Item, { k: 'val' }>): void {
  r.draft.filters.push({
    column: item.col.key,
    operator: r.negate ? 'NotEquals' : 'Equals',
    value: item.value,
    value2: null,
  });
  r.negate = false;
}

export function readColumn(r: Reader, item: Extract<Item, { k: 'col' }>, i: number): void {
  const { items, draft, used, next, prev } = r;
  const col = item.col;
  // 'low priority', 'the Lisbon office': the column names the value just read.
  const named = items[prev(i)];
  if (named?.k === 'val' && named.col === col) return;
  if (col.type === 'Boolean') {
    draft.filters.push({ column: col.key, operator: 'Equals', value: !r.negate, value2: null });
    r.negate = false;
    return;
  }
  if (r.negate && !isNumber(col)) {
    // 'without email': empty cells.
    draft.filters.push({ column: col.key, operator: 'Empty', value: null, value2: null });
    r.negate = false;
    return;
  }
  // A column followed by a comparison is compared there.
  const j = next(i);
  const after = items[j];
  if (after?.k === 'kw' && after.kw.kind === 'compare') return;
  if (after?.k === 'num' && isIdLike(col)) {
    // 'orders for product 12'
    used.add(after);
    draft.filters.push({
      column: col.key,
      operator: r.negate ? 'NotEquals' : 'Equals',
      value: after.n,
      value2: null,
    });
    r.negate = false;
    return;
  }
  if (after?.k === 'num' && isNumber(col)) return;
  if (isDate(col)) {
    draft.dateColumn = col;
    if (r.pendingAgg && r.pendingAgg.func !== 'CountRows') {
      draft.measures.push(measureFor(r.pendingAgg.func, col));
      r.pendingAgg = null;
    }
    return;
  }
  if (r.pendingAgg) {
    draft.measures.push(measureFor(r.pendingAgg.func, col));
    r.pendingAgg = null;
    return;
  }
  if (isNumber(col)) {
    if (draft.rank && !draft.rank.byMeasure && draft.rank.entity !== 'subject' && draft.rank.entity !== null) {
      draft.rank.byMeasure = true;
    }
    if (draft.rank && (draft.rank.entity === 'subject' || draft.rank.entity === null) && !draft.sort) {
      draft.sort = { by: 'column', index: 0, column: col.key, direction: draft.rank.direction };
      return;
    }
    draft.measures.push({ function: 'Sum', column: col.key });
    return;
  }
  draft.select.push(col.key);
}

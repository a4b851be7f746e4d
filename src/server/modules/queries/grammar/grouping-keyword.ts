/** Grouping words: 'by', 'per' and 'each' with what follows them, and grain words ('monthly'). */
import type { PivotAggregation } from '../../../../shared/pivots';
import type { CatalogueColumn } from '../catalogue';
import type { Keyword } from '../lexicon';
import { defaultDate, isDate, isNumber } from './columns';
import type { GrainKeyword, KeywordItem } from './items';
import { measureFor, type Reader } from './reader';

/** 'by status', 'per month', 'by status and channel', 'top 5 categories by amount'. */
export function readGroup(r: Reader, item: KeywordItem, i: number): void {
  const { items, draft, used, next, addGroup, grainColumn } = r;
  const j = next(i);
  const after = items[j];
  if (!after) {
    draft.ignored.push(item.m.text);
    return;
  }
  if (after.k === 'col') {
    used.add(after);
    // 'top 5 categories by amount': the number after 'by' is what ranks them.
    if (draft.rank && isNumber(after.col) && !draft.rank.byMeasure) {
      draft.rank.byMeasure = true;
      if (draft.rank.entity === 'subject' || draft.rank.entity === null) {
        draft.sort = { by: 'column', index: 0, column: after.col.key, direction: draft.rank.direction };
      } else {
        draft.measures.push({
          function: r.pendingAgg && r.pendingAgg.func !== 'CountRows' ? (r.pendingAgg.func as PivotAggregation) : 'Sum',
          column: after.col.key,
        });
        r.pendingAgg = null;
      }
      return;
    }
    if (isDate(after.col)) {
      addGroup(after.col, 'day');
      draft.dateColumn ??= after.col;
    } else addGroup(after.col, null);
    // 'by status and channel'
    let k = next(j);
    while (items[k]?.k === 'kw' && (items[k] as { kw: Keyword }).kw.kind === 'and' && items[next(k)]?.k === 'col') {
      const more = items[next(k)] as { k: 'col'; col: CatalogueColumn };
      used.add(items[next(k)]!);
      if (more.col.type !== 'Boolean') addGroup(more.col, isDate(more.col) ? 'day' : null);
      k = next(next(k));
    }
    return;
  }
  if (after.k === 'kw' && after.kw.kind === 'grain') {
    used.add(after);
    const col = grainColumn(j);
    r.pendingGrains.push({ grain: after.kw.grain, at: j, index: draft.groups.length });
    if (col !== 'default') {
      addGroup(col, after.kw.grain);
      draft.dateColumn ??= col;
      r.pendingGrains.pop();
    }
    return;
  }
  if (after.k === 'kw' && after.kw.kind === 'agg' && draft.rank) {
    // 'top 5 categories by number of orders': the measure that ranks.
    draft.rank.byMeasure = true;
    return;
  }
  if (after.k === 'subject') {
    // 'average amount per order': the rows themselves.
    used.add(after);
    return;
  }
  draft.ignored.push(item.m.text);
}

/** 'monthly', 'each month' after a group word, 'in which month'; 'earliest order date' is a date. */
export function readGrain(r: Reader, item: KeywordItem, kw: GrainKeyword, i: number): void {
  const { table, question, draft, addGroup, grainColumn } = r;
  // 'monthly revenue', 'revenue each month' (the group word came first), 'in which month'.
  if (!kw.adjective) {
    // 'earliest order date': a date, not a grouping.
    if (r.pendingAgg && (r.pendingAgg.func === 'Min' || r.pendingAgg.func === 'Max')) {
      draft.measures.push(measureFor(r.pendingAgg.func, draft.dateColumn ?? defaultDate(table, question, item.m.text)));
      r.pendingAgg = null;
    }
    return;
  }
  const col = grainColumn(i);
  if (col === 'default') r.pendingGrains.push({ grain: kw.grain, at: i, index: draft.groups.length });
  else {
    addGroup(col, kw.grain);
    draft.dateColumn ??= col;
  }
}

/**
 * A keyword item: aggregation and grouping words have their own files; rank ('top 5'), comparison,
 * 'not', 'show', 'sorted by' and the joints ('and', 'or', 'of') are read here.
 */
import type { CatalogueColumn } from '../catalogue';
import type { Keyword } from '../lexicon';
import { readAggregation } from './aggregation-keyword';
import { isIdLike, isNumber, spoken } from './columns';
import { readComparison } from './comparison';
import { readGrain, readGroup } from './grouping-keyword';
import type { KeywordItem } from './items';
import { Unanswerable } from './outcomes';
import type { Reader } from './reader';

/** Reads the keyword item at i; 'again' when it became another item to read once more. */
export function readKeyword(r: Reader, item: KeywordItem, i: number): 'again' | undefined {
  const { items, draft, used, next, addGroup } = r;
  const kw = item.kw;
  if (kw.kind === 'most') {
    // 'which channel has the most orders': the group with the largest count, one row.
    draft.rank = { direction: kw.direction, n: 1, byMeasure: true, entity: null };
    return;
  }
  if (kw.kind === 'agg') return readAggregation(r, item, kw, i);
  if (kw.kind === 'group') {
    readGroup(r, item, i);
    return undefined;
  }
  if (kw.kind === 'grain') {
    readGrain(r, item, kw, i);
    return undefined;
  }
  if (kw.kind === 'rank') {
    const j = next(i);
    const after = items[j];
    let n = 10;
    let k = j;
    if (after?.k === 'num') {
      used.add(after);
      n = after.n;
      k = next(j);
    }
    const entity = items[k];
    let target: 'subject' | CatalogueColumn | null = null;
    if (entity?.k === 'subject') {
      used.add(entity);
      target = 'subject';
      if (after?.k !== 'num' && entity.m.text === entity.m.text.replace(/s$/, '')) n = 1;
    } else if (entity?.k === 'col' && (!isNumber(entity.col) || isIdLike(entity.col))) {
      used.add(entity);
      target = entity.col;
      addGroup(entity.col, null);
      if (after?.k !== 'num' && !/s$/.test(entity.m.text)) n = 1;
    }
    draft.rank = { direction: kw.direction, n, byMeasure: false, entity: target };
    return;
  }
  if (kw.kind === 'compare') {
    readComparison(r, i, kw.op);
    return;
  }
  if (kw.kind === 'not') {
    r.negate = true;
    return;
  }
  if (kw.kind === 'list') {
    draft.list = true;
    return;
  }
  if (kw.kind === 'sort') {
    const j = next(i);
    const after = items[j];
    if (kw.direction && draft.sort) draft.sort.direction = kw.direction;
    else if (after?.k === 'col') {
      used.add(after);
      const direction =
        items[next(j)]?.k === 'kw' && (items[next(j)] as { kw: Keyword }).kw.kind === 'sort'
          ? ((items[next(j)] as { kw: { direction: 'Ascending' | 'Descending' | null } }).kw.direction ?? 'Ascending')
          : 'Ascending';
      draft.sort = { by: 'column', index: 0, column: after.col.key, direction };
    }
    return;
  }
  // 'and', 'or', 'of': joints.
  if (kw.kind === 'or' && draft.filters.length > 0) {
    const nextItem = items[next(i)];
    if (nextItem?.k === 'val' && draft.filters.some((f) => f.column === nextItem.col.key && f.operator === 'Equals')) {
      throw new Unanswerable(
        `I can filter ${spoken(nextItem.col)} on one value at a time: ask for each value separately, or by ${spoken(nextItem.col)}.`,
      );
    }
  }
  return undefined;
}

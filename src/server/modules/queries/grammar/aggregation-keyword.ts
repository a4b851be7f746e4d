/**
 * An aggregation word ('how many', 'total', 'average', '5 cheapest'): the measure it starts, or
 * the rank it sets, read against the items around it.
 */
import { defaultDate, defaultNumber, meansDate } from './columns';
import type { AggregationKeyword, KeywordItem } from './items';
import { measureFor, type Reader } from './reader';

/** Reads the aggregation keyword at i; 'again' when the item became a column to read once more. */
export function readAggregation(r: Reader, item: KeywordItem, kw: AggregationKeyword, i: number): 'again' | undefined {
  const { items, table, question, draft, used, next, prev } = r;
  // '5 cheapest products', '10 most recent orders': the rows with the smallest or largest.
  const count = items[prev(i)];
  if (count?.k === 'num' && !used.has(count) && (kw.func === 'Min' || kw.func === 'Max') && !draft.rank) {
    used.add(count);
    draft.ignored = draft.ignored.filter((w) => w !== count.m.text);
    draft.rank = {
      direction: kw.func === 'Max' ? 'Descending' : 'Ascending',
      n: count.n,
      byMeasure: true,
      entity: null,
    };
  }
  // 'number of distinct', 'how many different': the later, narrower word decides.
  if (r.pendingAgg && r.pendingAgg.func === 'CountRows' && kw.func === 'CountUnique') {
    r.pendingAgg = { func: 'CountUnique', word: `${r.pendingAgg.word} ${item.m.text}` };
    return;
  }
  // 'total' of a column named total, 'first' of nothing: the column wins when no column follows.
  const j = next(i);
  const after = items[j];
  // 'which office has the highest average salary': the group with the largest average.
  if ((kw.func === 'Max' || kw.func === 'Min') && after?.k === 'kw' && after.kw.kind === 'agg' && !draft.rank) {
    draft.rank = {
      direction: kw.func === 'Max' ? 'Descending' : 'Ascending',
      n: 1,
      byMeasure: true,
      entity: null,
    };
    return;
  }
  if (item.alt && !(after && (after.k === 'col' || after.k === 'subject'))) {
    items[i] = { k: 'col', m: item.m, col: item.alt };
    return 'again';
  }
  if (r.pendingAgg && r.pendingAgg.func !== 'CountRows' && kw.func === 'CountRows' && r.pendingAgg.func !== 'Sum')
    return;
  r.pendingAgg = { func: kw.func, word: item.m.text };
  if (after?.k === 'col' && after.col.type === 'Boolean') return;
  if (after?.k === 'col') {
    used.add(after);
    draft.measures.push(measureFor(r.pendingAgg.func, after.col));
    r.pendingAgg = null;
  } else if (after?.k === 'subject') {
    used.add(after);
    // 'average order amount': the column after the table's name.
    const then = items[next(j)];
    if (kw.func !== 'CountRows' && kw.func !== 'CountUnique' && then?.k === 'col' && then.col.type !== 'Boolean') {
      used.add(then);
      draft.measures.push(measureFor(kw.func, then.col));
      r.pendingAgg = null;
      return;
    }
    if (kw.func === 'CountRows' || kw.func === 'Sum') draft.measures.push({ function: 'Count', column: null });
    else if (kw.func === 'CountUnique') draft.measures.push({ function: 'Count', column: null });
    else {
      // 'latest order': the subject's date; 'biggest order': its main number.
      const col = meansDate(item.m.text)
        ? (draft.dateColumn ?? defaultDate(table, question, item.m.text))
        : defaultNumber(table, question, item.m.text);
      draft.measures.push(measureFor(kw.func, col));
    }
    r.pendingAgg = null;
  }
  return undefined;
}

/** Reads the items left to right into a draft query, then settles what the question left open. */
import type { CatalogueTable } from '../catalogue';
import { STOPWORDS } from '../lexicon';
import { readColumn, readValue } from './column-item';
import { defaultDate, defaultNumber, meansDate } from './columns';
import type { Item } from './items';
import { readKeyword } from './keyword';
import { measureFor, newReader, type Draft } from './reader';

export function interpret(items: Item[], table: CatalogueTable, question: string): Draft {
  const r = newReader(items, table, question);
  const { draft, used } = r;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (used.has(item)) continue;
    switch (item.k) {
      case 'kw':
        // 'again': the keyword became a column ('total' of a column named total), read as one.
        if (readKeyword(r, item, i) === 'again') i--;
        break;
      case 'val':
        readValue(r, item);
        break;
      case 'col':
        readColumn(r, item, i);
        break;
      case 'subject':
        break;
      case 'num':
        draft.ignored.push(item.m.text);
        break;
      case 'word':
        if (!STOPWORDS.has(item.m.text)) draft.ignored.push(item.m.text);
        break;
    }
  }

  for (const pending of [...r.pendingGrains].reverse()) {
    const col = draft.dateColumn ?? defaultDate(table, question, items[pending.at]!.m.text);
    draft.dateColumn ??= col;
    if (!draft.groups.some((g) => g.column === col.key && g.grain === pending.grain)) {
      draft.groups.splice(pending.index, 0, { column: col.key, grain: pending.grain });
    }
  }
  if (r.pendingAgg) {
    if (r.pendingAgg.func === 'CountRows' || r.pendingAgg.func === 'CountUnique')
      draft.measures.push({ function: 'Count', column: null });
    else if (meansDate(r.pendingAgg.word)) {
      draft.measures.push(
        measureFor(r.pendingAgg.func, draft.dateColumn ?? defaultDate(table, question, r.pendingAgg.word)),
      );
    } else draft.measures.push(measureFor(r.pendingAgg.func, defaultNumber(table, question, r.pendingAgg.word)));
  }
  return draft;
}

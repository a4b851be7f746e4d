/**
 * The grammar: a question (no language model) → the plain-data query of plain-query.ts, or a
 * question back (several meanings → suggestions, each a full question), or a plain "cannot".
 * Steps: take out the period (periods.ts), find mentions (tokens.ts), choose the table the
 * question is about, give each mention one meaning in that table, then read the mentions in order.
 */
import type { PivotAggregation, PivotTimeGrain } from '../../../shared/pivots';
import type { FilterOperator } from '../../../shared/tables';
import type { Catalogue, CatalogueColumn, CatalogueTable } from './catalogue';
import type { Keyword } from './lexicon';
import { STOPWORDS, UNSUPPORTED } from './lexicon';
import { findPeriod, localDate, type Period } from './periods';
import type { PlainQuery, QueryFilter, QueryGroup, QueryMeasure, QuerySort } from './plain-query';
import { readingOf } from './reading';
import { buildDictionary, findMentions, normalise, tokenize, type Entry, type Mention } from './tokens';

export type Understanding =
  | { kind: 'query'; query: PlainQuery; ignored: string[] }
  | { kind: 'ambiguous'; text: string; suggestions: string[] }
  | { kind: 'unknown'; text: string };

export interface UnderstandOptions {
  today: Date;
  timeZone?: string;
}

/** Most rows a list of rows shows without 'top N'. */
const LIST_LIMIT = 100;

/** One meaning per mention, once the table is chosen. */
type Item =
  | { k: 'subject'; m: Mention }
  | { k: 'col'; m: Mention; col: CatalogueColumn }
  | { k: 'val'; m: Mention; col: CatalogueColumn; value: string }
  | { k: 'kw'; m: Mention; kw: Keyword; alt: CatalogueColumn | null }
  | { k: 'num'; m: Mention; n: number }
  | { k: 'word'; m: Mention };

class Ambiguity {
  constructor(
    readonly text: string,
    readonly suggestions: string[],
  ) {}
}
class Unanswerable {
  constructor(readonly text: string) {}
}

const quoteList = (words: string[]) => words.map((w) => `'${w}'`).join(', ');
const spoken = (column: CatalogueColumn) => column.words.join(' ');

function entriesOf(mention: Mention, table: CatalogueTable): Entry[] {
  return mention.entries.filter((e) => e.table === table);
}

/** The table the question is about: the one that holds most of what it names. */
function chooseTable(mentions: Mention[], catalogue: Catalogue, question: string): CatalogueTable {
  const named = mentions.filter(
    (m) =>
      m.entries.length > 0 &&
      (!m.keyword || m.entries.some((e) => e.kind === 'table' || (e.kind === 'column' && e.strength === 'exact'))),
  );
  if (named.length === 0) {
    const words = mentions.filter((m) => !m.keyword && m.num === null && !STOPWORDS.has(m.text)).map((m) => m.text);
    throw new Unanswerable(
      words.length > 0
        ? `I could not find ${quoteList(words)} in your tables.`
        : 'I could not tell which table this is about. Name a table or one of its columns.',
    );
  }
  const scored = catalogue.tables.map((table, index) => {
    const covered = named.filter((m) => entriesOf(m, table).length > 0).length;
    const subjectAt = named.findIndex((m) => entriesOf(m, table).some((e) => e.kind === 'table'));
    return { table, covered, subjectAt: subjectAt < 0 ? Number.MAX_SAFE_INTEGER : subjectAt, index };
  });
  const best = Math.max(...scored.map((s) => s.covered));
  const top = scored.filter((s) => s.covered === best).sort((a, b) => a.subjectAt - b.subjectAt || a.index - b.index);
  const first = top[0]!;
  const tied = top.filter((s) => s.subjectAt === first.subjectAt);
  if (tied.length > 1) {
    throw new Ambiguity(
      `${tied.length} tables could answer this. Which one do you mean?`,
      tied.map((s) => `${question.trim().replace(/[?.!]+$/, '')} in ${s.table.name}`),
    );
  }
  const missing = named.filter((m) => entriesOf(m, first.table).length === 0);
  if (missing.length > 0) {
    throw new Unanswerable(
      `I could not find ${quoteList(missing.map((m) => m.text))} in ${first.table.name}` +
        `, and no one table holds everything the question names.`,
    );
  }
  return first.table;
}

/** Replace the words of `mention` in the question by `words`. */
function rewrite(text: string, mention: Mention, words: string): string {
  const escaped = mention.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\W+');
  const replaced = text.replace(new RegExp(`\\b${escaped}\\b`), words);
  return replaced === text ? `${text} (${words})` : replaced;
}

/** Each mention's one meaning in `table`; several → a question back. */
function resolve(mentions: Mention[], table: CatalogueTable, words: string): Item[] {
  const items: Item[] = [];
  for (const m of mentions) {
    const entries = entriesOf(m, table);
    if (m.num !== null) {
      items.push({ k: 'num', m, n: m.num });
      continue;
    }
    if (entries.some((e) => e.kind === 'table')) {
      items.push({ k: 'subject', m });
      continue;
    }
    const columns = entries.filter((e) => e.kind === 'column');
    const strongest = columns.some((e) => e.strength === 'exact')
      ? columns.filter((e) => e.strength === 'exact')
      : columns.some((e) => e.strength === 'partial')
        ? columns.filter((e) => e.strength === 'partial')
        : columns;
    const values = entries.filter((e) => e.kind === 'value');
    if (m.keyword) {
      const alt = strongest.length === 1 && strongest[0]!.kind === 'column' ? strongest[0]!.column : null;
      // A grain word that is the name of a column ('year') is that column; otherwise the keyword.
      if (
        alt &&
        strongest[0]!.kind === 'column' &&
        strongest[0]!.strength === 'exact' &&
        m.keyword.kind === 'grain' &&
        !m.keyword.adjective
      ) {
        items.push({ k: 'col', m, col: alt });
      } else {
        items.push({ k: 'kw', m, kw: m.keyword, alt });
      }
      continue;
    }
    if (
      strongest.length > 0 &&
      (strongest[0]!.kind !== 'column' || strongest[0]!.strength !== 'hint' || values.length === 0)
    ) {
      const distinct = [...new Set(strongest.map((e) => e.column))];
      if (distinct.length > 1) {
        throw new Ambiguity(
          `'${m.text}' could mean ${distinct.length} columns of ${table.name}. Which one?`,
          distinct.map((c) => rewrite(words, m, spoken(c))),
        );
      }
      items.push({ k: 'col', m, col: distinct[0]! });
      continue;
    }
    if (values.length > 0) {
      const previous = items[items.length - 1];
      const named = previous?.k === 'col' ? values.find((v) => v.column === previous.col) : undefined;
      const distinct = named ? [named] : [...new Map(values.map((v) => [v.column, v])).values()];
      if (distinct.length > 1) {
        throw new Ambiguity(
          `'${m.text}' is a value of ${distinct.length} columns of ${table.name}. Which one?`,
          distinct.map((v) => rewrite(words, m, `${spoken(v.column)} ${m.text}`)),
        );
      }
      const value = distinct[0]!;
      if (named) items.pop();
      items.push({ k: 'val', m, col: value.column, value: value.value });
      continue;
    }
    items.push({ k: 'word', m });
  }
  return items;
}

const isDate = (c: CatalogueColumn) => c.type === 'Date' || c.type === 'DateTime';
const isNumber = (c: CatalogueColumn) => c.type === 'Number';
const isIdLike = (c: CatalogueColumn) => c.words.includes('id') || c.key === '_row_id';

/** The date column periods and grains apply to when the question names none. */
function defaultDate(table: CatalogueTable, question: string, words: string[], mention: string): CatalogueColumn {
  const dates = table.columns.filter(isDate);
  if (dates.length === 0) throw new Unanswerable(`${table.name} has no date column to read '${mention}' on.`);
  const bookkeeping = (c: CatalogueColumn) =>
    c.words.some((w) => /^(updated|modified|synced|deleted|loaded|ingested)$/.test(w));
  let candidates = dates.filter((c) => !bookkeeping(c));
  if (candidates.length === 0) candidates = dates;
  if (candidates.length > 1) {
    const notCreated = candidates.filter((c) => !c.words.includes('created'));
    if (notCreated.length > 0) candidates = notCreated;
  }
  if (candidates.length > 1) {
    void words;
    throw new Ambiguity(
      `${table.name} has ${candidates.length} date columns. Which one should '${mention}' use?`,
      candidates.map((c) => `${question.trim().replace(/[?.!]+$/, '')} using ${spoken(c)}`),
    );
  }
  return candidates[0]!;
}

/** The number column a bare 'how much', 'over 100' or 'top 5 by' means. */
function defaultNumber(table: CatalogueTable, question: string, mention: string): CatalogueColumn {
  const numbers = table.columns.filter((c) => isNumber(c) && !isIdLike(c));
  const preferred = ['amount', 'total', 'revenue', 'sales', 'value', 'price', 'salary', 'cost'];
  for (const name of preferred) {
    const found = numbers.filter((c) => c.words[c.words.length - 1] === name);
    if (found.length === 1) return found[0]!;
  }
  if (numbers.length === 1) return numbers[0]!;
  if (numbers.length === 0) throw new Unanswerable(`${table.name} has no number column for '${mention}'.`);
  throw new Ambiguity(
    `Which number of ${table.name} should '${mention}' use?`,
    numbers.map((c) => `${question.trim().replace(/[?.!]+$/, '')} (${spoken(c)})`),
  );
}

const COMPARE_WORD: Record<string, string> = {
  GreaterThan: 'over',
  LessThan: 'under',
  GreaterThanOrEquals: 'at least',
  LessThanOrEquals: 'at most',
  Equals: 'equal to',
  Between: 'between',
};

interface Draft {
  measures: QueryMeasure[];
  groups: QueryGroup[];
  filters: QueryFilter[];
  sort: QuerySort | null;
  limit: number | null;
  select: string[];
  rank: {
    direction: 'Descending' | 'Ascending';
    n: number;
    byMeasure: boolean;
    entity: 'subject' | CatalogueColumn | null;
  } | null;
  dateColumn: CatalogueColumn | null;
  list: boolean;
  ignored: string[];
}

/** Reads the items left to right into a draft query. */
function interpret(items: Item[], table: CatalogueTable, question: string): Draft {
  const draft: Draft = {
    measures: [],
    groups: [],
    filters: [],
    sort: null,
    limit: null,
    select: [],
    rank: null,
    dateColumn: null,
    list: false,
    ignored: [],
  };
  const used = new Set<Item>();
  const skippable = (item: Item | undefined) =>
    item !== undefined &&
    ((item.k === 'word' && STOPWORDS.has(item.m.text)) || (item.k === 'kw' && item.kw.kind === 'of'));
  /** The next meaningful item after index i. */
  const next = (i: number): number => {
    let j = i + 1;
    while (j < items.length && skippable(items[j])) j++;
    return j;
  };
  const prev = (i: number): number => {
    let j = i - 1;
    while (j >= 0 && skippable(items[j])) j--;
    return j;
  };
  let pendingAgg: { func: PivotAggregation | 'CountRows'; word: string } | null = null;
  let negate = false;

  const measureFor = (func: PivotAggregation | 'CountRows', col: CatalogueColumn | null): QueryMeasure => {
    if (col === null) return { function: 'Count', column: null };
    if (func === 'CountRows') return { function: isNumber(col) ? 'Sum' : 'CountUnique', column: col.key };
    if ((func === 'Sum' || func === 'Avg') && !isNumber(col)) return { function: 'CountUnique', column: col.key };
    return { function: func, column: col.key };
  };

  const addGroup = (col: CatalogueColumn, grain: PivotTimeGrain | null) => {
    if (draft.groups.some((g) => g.column === col.key && g.grain === grain)) return;
    draft.groups.push({ column: col.key, grain: isDate(col) ? (grain ?? 'day') : null });
  };

  /** A grain at i ('month', 'month of ordered_at'): the date column it applies to. */
  const grainColumn = (i: number): CatalogueColumn | 'default' => {
    const j = next(i);
    const after = items[j];
    if (after?.k === 'col' && isDate(after.col)) {
      used.add(after);
      return after.col;
    }
    return 'default';
  };
  const pendingGrains: { grain: PivotTimeGrain; at: number; index: number }[] = [];

  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (used.has(item)) continue;
    switch (item.k) {
      case 'kw': {
        const kw = item.kw;
        if (kw.kind === 'most') {
          // 'which channel has the most orders': the group with the largest count, one row.
          draft.rank = { direction: kw.direction, n: 1, byMeasure: true, entity: null };
          break;
        }
        if (kw.kind === 'agg') {
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
          if (pendingAgg && pendingAgg.func === 'CountRows' && kw.func === 'CountUnique') {
            pendingAgg = { func: 'CountUnique', word: `${pendingAgg.word} ${item.m.text}` };
            break;
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
            break;
          }
          if (item.alt && !(after && (after.k === 'col' || after.k === 'subject'))) {
            items[i] = { k: 'col', m: item.m, col: item.alt };
            i--;
            break;
          }
          if (pendingAgg && pendingAgg.func !== 'CountRows' && kw.func === 'CountRows' && pendingAgg.func !== 'Sum')
            break;
          pendingAgg = { func: kw.func, word: item.m.text };
          if (after?.k === 'col' && after.col.type === 'Boolean') break;
          if (after?.k === 'col') {
            used.add(after);
            draft.measures.push(measureFor(pendingAgg.func, after.col));
            pendingAgg = null;
          } else if (after?.k === 'subject') {
            used.add(after);
            // 'average order amount': the column after the table's name.
            const then = items[next(j)];
            if (
              kw.func !== 'CountRows' &&
              kw.func !== 'CountUnique' &&
              then?.k === 'col' &&
              then.col.type !== 'Boolean'
            ) {
              used.add(then);
              draft.measures.push(measureFor(kw.func, then.col));
              pendingAgg = null;
              break;
            }
            if (kw.func === 'CountRows' || kw.func === 'Sum') draft.measures.push({ function: 'Count', column: null });
            else if (kw.func === 'CountUnique') draft.measures.push({ function: 'Count', column: null });
            else {
              // 'latest order': the subject's date; 'biggest order': its main number.
              const col = /latest|earliest|newest|oldest|recent|first/.test(item.m.text)
                ? (draft.dateColumn ?? defaultDate(table, question, [], item.m.text))
                : defaultNumber(table, question, item.m.text);
              draft.measures.push(measureFor(kw.func, col));
            }
            pendingAgg = null;
          }
          break;
        }
        if (kw.kind === 'group') {
          const j = next(i);
          const after = items[j];
          if (!after) {
            draft.ignored.push(item.m.text);
            break;
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
                  function:
                    pendingAgg && pendingAgg.func !== 'CountRows' ? (pendingAgg.func as PivotAggregation) : 'Sum',
                  column: after.col.key,
                });
                pendingAgg = null;
              }
              break;
            }
            if (isDate(after.col)) {
              addGroup(after.col, 'day');
              draft.dateColumn ??= after.col;
            } else addGroup(after.col, null);
            // 'by status and channel'
            let k = next(j);
            while (
              items[k]?.k === 'kw' &&
              (items[k] as { kw: Keyword }).kw.kind === 'and' &&
              items[next(k)]?.k === 'col'
            ) {
              const more = items[next(k)] as { k: 'col'; col: CatalogueColumn };
              used.add(items[next(k)]!);
              if (more.col.type !== 'Boolean') addGroup(more.col, isDate(more.col) ? 'day' : null);
              k = next(next(k));
            }
            break;
          }
          if (after.k === 'kw' && after.kw.kind === 'grain') {
            used.add(after);
            const col = grainColumn(j);
            pendingGrains.push({ grain: after.kw.grain, at: j, index: draft.groups.length });
            if (col !== 'default') {
              addGroup(col, after.kw.grain);
              draft.dateColumn ??= col;
              pendingGrains.pop();
            }
            break;
          }
          if (after.k === 'kw' && after.kw.kind === 'agg' && draft.rank) {
            // 'top 5 categories by number of orders': the measure that ranks.
            draft.rank.byMeasure = true;
            break;
          }
          if (after.k === 'subject') {
            // 'average amount per order': the rows themselves.
            used.add(after);
            break;
          }
          draft.ignored.push(item.m.text);
          break;
        }
        if (kw.kind === 'grain') {
          // 'monthly revenue', 'revenue each month' (the group word came first), 'in which month'.
          if (!kw.adjective) {
            // 'earliest order date': a date, not a grouping.
            if (pendingAgg && (pendingAgg.func === 'Min' || pendingAgg.func === 'Max')) {
              draft.measures.push(
                measureFor(pendingAgg.func, draft.dateColumn ?? defaultDate(table, question, [], item.m.text)),
              );
              pendingAgg = null;
            }
            break;
          }
          const col = grainColumn(i);
          if (col === 'default') pendingGrains.push({ grain: kw.grain, at: i, index: draft.groups.length });
          else {
            addGroup(col, kw.grain);
            draft.dateColumn ??= col;
          }
          break;
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
          break;
        }
        if (kw.kind === 'compare') {
          compare(i, kw.op);
          break;
        }
        if (kw.kind === 'not') {
          negate = true;
          break;
        }
        if (kw.kind === 'list') {
          draft.list = true;
          break;
        }
        if (kw.kind === 'sort') {
          const j = next(i);
          const after = items[j];
          if (kw.direction && draft.sort) draft.sort.direction = kw.direction;
          else if (after?.k === 'col') {
            used.add(after);
            const direction =
              items[next(j)]?.k === 'kw' && (items[next(j)] as { kw: Keyword }).kw.kind === 'sort'
                ? ((items[next(j)] as { kw: { direction: 'Ascending' | 'Descending' | null } }).kw.direction ??
                  'Ascending')
                : 'Ascending';
            draft.sort = { by: 'column', index: 0, column: after.col.key, direction };
          }
          break;
        }
        // 'and', 'or', 'of': joints.
        if (kw.kind === 'or' && draft.filters.length > 0) {
          const nextItem = items[next(i)];
          if (
            nextItem?.k === 'val' &&
            draft.filters.some((f) => f.column === nextItem.col.key && f.operator === 'Equals')
          ) {
            throw new Unanswerable(
              `I can filter ${spoken(nextItem.col)} on one value at a time: ask for each value separately, or by ${spoken(nextItem.col)}.`,
            );
          }
        }
        break;
      }
      case 'val': {
        draft.filters.push({
          column: item.col.key,
          operator: negate ? 'NotEquals' : 'Equals',
          value: item.value,
          value2: null,
        });
        negate = false;
        break;
      }
      case 'col': {
        const col = item.col;
        // 'low priority', 'the Lisbon office': the column names the value just read.
        const named = items[prev(i)];
        if (named?.k === 'val' && named.col === col) break;
        if (col.type === 'Boolean') {
          draft.filters.push({ column: col.key, operator: 'Equals', value: !negate, value2: null });
          negate = false;
          break;
        }
        if (negate && !isNumber(col)) {
          // 'without email': empty cells.
          draft.filters.push({ column: col.key, operator: 'Empty', value: null, value2: null });
          negate = false;
          break;
        }
        // A column followed by a comparison is compared there.
        const j = next(i);
        const after = items[j];
        if (after?.k === 'kw' && after.kw.kind === 'compare') break;
        if (after?.k === 'num' && isIdLike(col)) {
          // 'orders for product 12'
          used.add(after);
          draft.filters.push({
            column: col.key,
            operator: negate ? 'NotEquals' : 'Equals',
            value: after.n,
            value2: null,
          });
          negate = false;
          break;
        }
        if (after?.k === 'num' && isNumber(col)) break;
        if (isDate(col)) {
          draft.dateColumn = col;
          if (pendingAgg && pendingAgg.func !== 'CountRows') {
            draft.measures.push(measureFor(pendingAgg.func, col));
            pendingAgg = null;
          }
          break;
        }
        if (pendingAgg) {
          draft.measures.push(measureFor(pendingAgg.func, col));
          pendingAgg = null;
          break;
        }
        if (isNumber(col)) {
          if (draft.rank && !draft.rank.byMeasure && draft.rank.entity !== 'subject' && draft.rank.entity !== null) {
            draft.rank.byMeasure = true;
          }
          if (draft.rank && (draft.rank.entity === 'subject' || draft.rank.entity === null) && !draft.sort) {
            draft.sort = { by: 'column', index: 0, column: col.key, direction: draft.rank.direction };
            break;
          }
          draft.measures.push({ function: 'Sum', column: col.key });
          break;
        }
        draft.select.push(col.key);
        break;
      }
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

  function compare(i: number, op: string) {
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
    const operator: FilterOperator = negate
      ? (
          {
            GreaterThan: 'LessThanOrEquals',
            LessThan: 'GreaterThanOrEquals',
            GreaterThanOrEquals: 'LessThan',
            LessThanOrEquals: 'GreaterThan',
            Equals: 'NotEquals',
            Between: 'Between',
          } as Record<string, FilterOperator>
        )[op]!
      : (op as FilterOperator);
    negate = false;
    draft.filters.push({ column: col.key, operator, value: low, value2: high });
  }

  for (const pending of [...pendingGrains].reverse()) {
    const col = draft.dateColumn ?? defaultDate(table, question, [], items[pending.at]!.m.text);
    draft.dateColumn ??= col;
    if (!draft.groups.some((g) => g.column === col.key && g.grain === pending.grain)) {
      draft.groups.splice(pending.index, 0, { column: col.key, grain: pending.grain });
    }
  }
  if (pendingAgg) {
    if (pendingAgg.func === 'CountRows' || pendingAgg.func === 'CountUnique')
      draft.measures.push({ function: 'Count', column: null });
    else if (/latest|earliest|newest|oldest|recent|first/.test(pendingAgg.word)) {
      draft.measures.push(
        measureFor(pendingAgg.func, draft.dateColumn ?? defaultDate(table, question, [], pendingAgg.word)),
      );
    } else draft.measures.push(measureFor(pendingAgg.func, defaultNumber(table, question, pendingAgg.word)));
  }
  return draft;
}

/** The draft as the final query: rank → sort and limit, defaults for what was left open. */
function finish(draft: Draft, table: CatalogueTable, period: Period | null, question: string): PlainQuery {
  const filters = [...draft.filters];
  if (period) {
    const col = draft.dateColumn ?? defaultDate(table, question, [], period.label);
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

/** Reads a question against the catalogue. */
export function understand(question: string, catalogue: Catalogue, options: UnderstandOptions): Understanding {
  const text = normalise(question);
  if (text.length === 0)
    return { kind: 'unknown', text: 'Ask a question about your tables, e.g. "how many orders last month".' };
  const today = localDate(options.today, options.timeZone);
  const period = findPeriod(text, today);
  const rest = period ? `${text.slice(0, period.start)} ${text.slice(period.end)}` : text;
  const tokens = tokenize(rest);
  const dictionary = buildDictionary(catalogue);
  const mentions = findMentions(tokens, dictionary);
  const unsupported = tokens.map((t) => UNSUPPORTED[t.raw] ?? UNSUPPORTED[t.lemma]).find((u) => u !== undefined);
  if (unsupported) {
    return {
      kind: 'unknown',
      text: `I cannot calculate ${unsupported} yet. I can count rows or distinct values, and give sums, averages, minimums and maximums, by any column or period.`,
    };
  }
  try {
    const table = chooseTable(mentions, catalogue, question);
    const items = resolve(mentions, table, text);
    const draft = interpret(items, table, question);
    // Only a value matched ('the weather in Paris'), and other words did not: not about this table.
    const named = items.some((item) => item.k === 'subject' || item.k === 'col');
    if (!named && draft.ignored.length > 0) {
      throw new Unanswerable(`I could not find ${quoteList(draft.ignored)} in your tables.`);
    }
    const query = finish(draft, table, period, question);
    return { kind: 'query', query, ignored: draft.ignored };
  } catch (error) {
    if (error instanceof Ambiguity) return { kind: 'ambiguous', text: error.text, suggestions: error.suggestions };
    if (error instanceof Unanswerable) return { kind: 'unknown', text: error.text };
    throw error;
  }
}

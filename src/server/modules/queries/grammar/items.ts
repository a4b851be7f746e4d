/** Each mention's one meaning in the chosen table: the items the reader reads left to right. */
import type { CatalogueColumn, CatalogueTable } from '../catalogue';
import type { Keyword } from '../lexicon';
import type { Entry, Mention } from '../tokens';
import { spoken } from './columns';
import { Ambiguity } from './outcomes';

/** One meaning per mention, once the table is chosen. */
export type Item =
  | { k: 'subject'; m: Mention }
  | { k: 'col'; m: Mention; col: CatalogueColumn }
  | { k: 'val'; m: Mention; col: CatalogueColumn; value: string }
  | { k: 'kw'; m: Mention; kw: Keyword; alt: CatalogueColumn | null }
  | { k: 'num'; m: Mention; n: number }
  | { k: 'word'; m: Mention };

export type KeywordItem = Extract<Item, { k: 'kw' }>;
export type AggregationKeyword = Extract<Keyword, { kind: 'agg' }>;
export type GrainKeyword = Extract<Keyword, { kind: 'grain' }>;

export function entriesOf(mention: Mention, table: CatalogueTable): Entry[] {
  return mention.entries.filter((e) => e.table === table);
}

/** Replace the words of `mention` in the question by `words`. */
function rewrite(text: string, mention: Mention, words: string): string {
  const escaped = mention.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\W+');
  const replaced = text.replace(new RegExp(`\\b${escaped}\\b`), words);
  return replaced === text ? `${text} (${words})` : replaced;
}

/** Each mention's one meaning in `table`; several → a question back. */
export function resolve(mentions: Mention[], table: CatalogueTable, words: string): Item[] {
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

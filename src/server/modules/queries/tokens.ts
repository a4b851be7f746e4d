/**
 * A question as tokens, and the phrases of the catalogue and the grammar found in it (longest
 * first): each span of words becomes a mention of tables, columns, values or keywords.
 */
import type { Catalogue, CatalogueColumn, CatalogueTable } from './catalogue';
import { KEYWORDS, COUNTRY_ALIASES, COUNTRY_CODES, MEASURE_HINTS, STOPWORDS, type Keyword } from './lexicon';
import { fold, singular } from './words';

export interface Token {
  /** The word as written (folded). */
  raw: string;
  /** Its compared form (singular). */
  lemma: string;
  num: number | null;
}

export type Entry =
  | { kind: 'table'; table: CatalogueTable }
  | { kind: 'column'; table: CatalogueTable; column: CatalogueColumn; strength: 'exact' | 'partial' | 'hint' }
  | { kind: 'value'; table: CatalogueTable; column: CatalogueColumn; value: string };

export interface Mention {
  start: number;
  end: number;
  text: string;
  keyword: Keyword | null;
  entries: Entry[];
  num: number | null;
}

/** Folded text with numbers written plainly ('1,000' → 1000, '$5' → 5, "isn't" → isnt). */
export function normalise(question: string): string {
  return fold(question)
    .replace(/[’`]/g, "'")
    .replace(/(\w)'s\b/g, '$1')
    .replace(/n't\b/g, 'nt')
    .replace(/'/g, '')
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(/[$€£]\s?(\d)/g, '$1')
    .replace(/(\d)\s?(?:eur|euros?|usd|dollars?|gbp|pounds?)\b/g, '$1')
    .replace(/(\d+(?:\.\d+)?)k\b/g, (_, n: string) => String(Number(n) * 1000))
    .replace(/\s+/g, ' ')
    .trim();
}

export function tokenize(text: string): Token[] {
  const words = text.match(/\d+(?:\.\d+)?|[a-z0-9]+|>=|<=|[<>=]/g) ?? [];
  return words.map((raw) => ({
    raw,
    lemma: /^\d/.test(raw) ? raw : singular(raw),
    num: /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : null,
  }));
}

/** Words a column is not found by alone: too common to point at one column. */
const WEAK = new Set([
  'id',
  'name',
  'at',
  'on',
  'is',
  'up',
  'date',
  'time',
  'no',
  'number',
  'code',
  'type',
  'key',
  'in',
  'of',
]);

type Dictionary = Map<string, Entry[]>;

function add(dictionary: Dictionary, words: string[], entry: Entry) {
  if (words.length === 0) return;
  const key = words.join(' ');
  const list = dictionary.get(key) ?? [];
  list.push(entry);
  dictionary.set(key, list);
}

const lemmas = (text: string) => tokenize(normalise(text)).map((t) => t.lemma);

/** Every phrase of the catalogue: names, their telling words, synonyms, values, measure hints. */
export function buildDictionary(catalogue: Catalogue): Dictionary {
  const dictionary: Dictionary = new Map();
  for (const table of catalogue.tables) {
    add(dictionary, table.words, { kind: 'table', table });
    for (const synonym of table.synonyms) add(dictionary, synonym, { kind: 'table', table });
    const exact = new Set<string>();
    for (const column of table.columns) {
      add(dictionary, column.words, { kind: 'column', table, column, strength: 'exact' });
      exact.add(column.words.join(' '));
      for (const synonym of column.synonyms) {
        add(dictionary, synonym, { kind: 'column', table, column, strength: 'exact' });
        exact.add(synonym.join(' '));
      }
    }
    for (const column of table.columns) {
      if (column.words.length > 1) {
        for (const word of column.words) {
          if (!WEAK.has(word) && !exact.has(word))
            add(dictionary, [word], { kind: 'column', table, column, strength: 'partial' });
        }
      }
      for (const value of column.values) {
        const words = lemmas(value);
        if (!(words.length === 0 || (words.length === 1 && STOPWORDS.has(words[0]!)))) {
          add(dictionary, words, { kind: 'value', table, column, value });
        }
        const country = COUNTRY_CODES[value];
        if (country && /country|nation/.test(column.words.join(' '))) {
          add(dictionary, lemmas(country), { kind: 'value', table, column, value });
          for (const [alias, name] of Object.entries(COUNTRY_ALIASES)) {
            if (name === country) add(dictionary, lemmas(alias), { kind: 'value', table, column, value });
          }
        }
      }
    }
    for (const [word, hints] of Object.entries(MEASURE_HINTS)) {
      if (exact.has(singular(word))) continue;
      const column = hints
        .map((hint) => table.columns.find((c) => c.type === 'Number' && c.words[c.words.length - 1] === hint))
        .find((c) => c !== undefined);
      if (column) add(dictionary, [singular(word)], { kind: 'column', table, column, strength: 'hint' });
    }
  }
  return dictionary;
}

const KEYWORD_MAP = new Map(KEYWORDS.map(([phrase, keyword]) => [phrase, keyword]));
const MAX_PHRASE = 6;

/** Mentions in order, each the longest phrase starting at its word. */
export function findMentions(tokens: Token[], dictionary: Dictionary): Mention[] {
  const mentions: Mention[] = [];
  let i = 0;
  while (i < tokens.length) {
    let best: Mention | null = null;
    for (let length = Math.min(MAX_PHRASE, tokens.length - i); length >= 1; length--) {
      const span = tokens.slice(i, i + length);
      const entries = dictionary.get(span.map((t) => t.lemma).join(' ')) ?? [];
      const keyword = KEYWORD_MAP.get(span.map((t) => t.raw).join(' ')) ?? null;
      if (entries.length === 0 && !keyword) continue;
      best = { start: i, end: i + length, text: span.map((t) => t.raw).join(' '), keyword, entries, num: null };
      break;
    }
    if (!best) {
      const token = tokens[i]!;
      best = { start: i, end: i + 1, text: token.raw, keyword: null, entries: [], num: token.num };
    }
    mentions.push(best);
    i = best.end;
  }
  return mentions;
}

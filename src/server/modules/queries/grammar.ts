/**
 * The grammar: a question (no language model) → the plain-data query of plain-query.ts, or a
 * question back (several meanings → suggestions, each a full question), or a plain "cannot".
 * Steps: take out the period (periods.ts), find mentions (tokens.ts), choose the table the
 * question is about (grammar/choose-table.ts), give each mention one meaning in that table
 * (grammar/items.ts), then read the mentions in order (grammar/interpret.ts) and finish the query
 * (grammar/finish.ts).
 */
import type { Catalogue } from './catalogue';
import { chooseTable } from './grammar/choose-table';
import { finish } from './grammar/finish';
import { interpret } from './grammar/interpret';
import { resolve } from './grammar/items';
import { Ambiguity, quoteList, Unanswerable } from './grammar/outcomes';
import { UNSUPPORTED } from './lexicon';
import { findPeriod, localDate } from './periods';
import type { PlainQuery } from './plain-query';
import { buildDictionary, findMentions, normalise, tokenize } from './tokens';

export type Understanding =
  | { kind: 'query'; query: PlainQuery; ignored: string[] }
  | { kind: 'ambiguous'; text: string; suggestions: string[] }
  | { kind: 'unknown'; text: string };

export interface UnderstandOptions {
  today: Date;
  timeZone?: string;
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

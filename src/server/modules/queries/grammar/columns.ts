/** Column kinds, and the date or number column a question means when it names none. */
import type { CatalogueColumn, CatalogueTable } from '../catalogue';
import { Ambiguity, questionStem, Unanswerable } from './outcomes';

export const isDate = (c: CatalogueColumn) => c.type === 'Date' || c.type === 'DateTime';
export const isNumber = (c: CatalogueColumn) => c.type === 'Number';
export const isIdLike = (c: CatalogueColumn) => c.words.includes('id') || c.key === '_row_id';

/** 'latest', 'earliest': words that ask for a date rather than a number. */
export const meansDate = (word: string) => /latest|earliest|newest|oldest|recent|first/.test(word);

/** A column as the user would say it. */
export const spoken = (column: CatalogueColumn) => column.words.join(' ');

/** The date column periods and grains apply to when the question names none. */
export function defaultDate(table: CatalogueTable, question: string, mention: string): CatalogueColumn {
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
    throw new Ambiguity(
      `${table.name} has ${candidates.length} date columns. Which one should '${mention}' use?`,
      candidates.map((c) => `${questionStem(question)} using ${spoken(c)}`),
    );
  }
  return candidates[0]!;
}

/** The number column a bare 'how much', 'over 100' or 'top 5 by' means. */
export function defaultNumber(table: CatalogueTable, question: string, mention: string): CatalogueColumn {
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
    numbers.map((c) => `${questionStem(question)} (${spoken(c)})`),
  );
}

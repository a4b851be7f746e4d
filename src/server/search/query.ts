/**
 * Answering a search from an account's index: the query's words, the last one matching words that
 * start with it (as you type), diacritics and case ignored. Counts are summed per table and column from
 * the entries' row counts; at most MATCH_LIMIT entries are counted (a very common prefix says so
 * with `complete: false`), which keeps every answer within a few milliseconds of index reading.
 */
import type Database from 'better-sqlite3';
import { searchWords } from '../../shared/search';
import { parseTableKey } from './catalog';

export const MATCH_LIMIT = 20_000;
/** Sample hits per table. */
const SAMPLES_PER_TABLE = 3;

/**
 * The FTS5 expression of the words (letters and digits only): every word, the last one as a prefix
 * (the word being typed), the others whole, as search-as-you-type boxes do ("prefix last"). A prefix
 * longer than the index's prefix lengths makes FTS5 merge the row lists of every word it starts, in
 * full before any other word can narrow them: 'note 7654321' over ten million notes read all ten
 * million 'note' rows that way (850 ms), where the whole word is read only where the rare one is.
 */
export function matchExpression(words: string[]): string {
  const quoted = words.map((w) => `"${w.replace(/"/g, '""')}"`);
  return quoted.map((w, index) => (index === quoted.length - 1 ? `${w}*` : w)).join(' ');
}

export interface ColumnCount {
  tableKey: string;
  columnKey: string;
  /** Matching entries, and the rows they stand for. */
  entries: number;
  hits: number;
}

export interface SampleEntry {
  tableKey: string;
  columnKey: string;
  value: string;
  count: number;
  sampleRow: number | null;
}

export interface IndexAnswer {
  counts: ColumnCount[];
  samples: SampleEntry[];
  complete: boolean;
}

const MATCHED = `WITH m AS (SELECT rowid AS id FROM fts WHERE fts MATCH ? LIMIT ${MATCH_LIMIT + 1})`;

export function queryIndex(reader: Database.Database, words: string[]): IndexAnswer {
  if (words.length === 0) return { counts: [], samples: [], complete: true };
  const expression = matchExpression(words);
  try {
    const counts = reader
      .prepare(
        `${MATCHED}
         SELECT t.table_key AS tableKey, c.column_key AS columnKey, count(*) AS entries, sum(d.count) AS hits
         FROM m JOIN docs d ON d.id = m.id JOIN columns c ON c.cid = d.cid JOIN tables t ON t.tid = c.tid
         GROUP BY c.cid`,
      )
      .all(expression) as ColumnCount[];
    const samples = reader
      .prepare(
        `${MATCHED}
         SELECT tableKey, columnKey, value, count, sampleRow FROM (
           SELECT t.table_key AS tableKey, c.column_key AS columnKey, d.value AS value, d.count AS count,
             d.sample_row AS sampleRow,
             row_number() OVER (PARTITION BY t.tid ORDER BY d.count DESC, d.id) AS rn
           FROM m JOIN docs d ON d.id = m.id JOIN columns c ON c.cid = d.cid JOIN tables t ON t.tid = c.tid)
         WHERE rn <= ${SAMPLES_PER_TABLE}`,
      )
      .all(expression) as SampleEntry[];
    const matched = counts.reduce((sum, c) => sum + c.entries, 0);
    return { counts, samples, complete: matched <= MATCH_LIMIT };
  } catch (error) {
    // An index still being created (no tables yet) answers nothing rather than failing the search.
    if (/no such table/i.test(String(error))) return { counts: [], samples: [], complete: true };
    throw error;
  }
}

export interface ValueEntry {
  tableKey: string;
  columnKey: string;
  value: string;
  count: number;
}

/**
 * Distinct values (of columns indexed by value) whose every word is among `words`: the values a
 * question names ('orders from France' names 'France'), most rows first.
 */
export function valuesNamedIn(reader: Database.Database, words: string[], limit: number): ValueEntry[] {
  if (words.length === 0) return [];
  const wordSet = new Set(words);
  let rows: ValueEntry[];
  try {
    rows = reader
      .prepare(
        `SELECT t.table_key AS tableKey, c.column_key AS columnKey, d.value AS value, d.count AS count
         FROM (SELECT rowid AS id FROM fts WHERE fts MATCH ? LIMIT 5000) m
         JOIN docs d ON d.id = m.id JOIN columns c ON c.cid = d.cid JOIN tables t ON t.tid = c.tid
         WHERE c.kind = 'values'
         ORDER BY d.count DESC`,
      )
      .all(words.map((w) => `"${w}"`).join(' OR ')) as ValueEntry[];
  } catch (error) {
    if (/no such table/i.test(String(error))) return [];
    throw error;
  }
  return rows.filter((row) => searchWords(row.value).every((w) => wordSet.has(w))).slice(0, limit);
}

export { parseTableKey };

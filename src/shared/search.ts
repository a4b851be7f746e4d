/**
 * Global search (spec workspace.md: Global search, Search response): the request, the response's
 * groups and hits, the admin view of each account's index, the screen's messages, and the one
 * function that shortens a value around its match (server and client agree on it).
 */
import { z } from 'zod';
import { TABLE_TYPES } from './tables';

/** Shorter queries wait for more input: one letter matches too much to be useful. */
export const SEARCH_MIN_QUERY_LENGTH = 2;
export const SEARCH_MAX_QUERY_LENGTH = 200;
/** Texts in results are shortened to this many characters around the match (spec). */
export const SEARCH_SNIPPET_LENGTH = 50;
/** The header box waits this long after the last key before it asks. */
export const SEARCH_DEBOUNCE_MS = 200;

export const SEARCH_MESSAGES = {
  waiting: 'Waiting for more input...',
  noResults: (query: string) => `No results found for "${query}"`,
  found: (hits: number) => `Found a total of ${hits.toLocaleString('en-US')} hits in:`,
  lagging: 'Indexing is catching up: the newest data may not be found yet.',
  partial: 'Counts are from the first matching values; refine the search for exact counts.',
  placeholder: 'Search data',
} as const;

export const searchQuerySchema = z.object({
  query: z.string().max(SEARCH_MAX_QUERY_LENGTH).default(''),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** Where the value was found inside its text: the shortened text and the hit's place in it. */
export const searchSnippetSchema = z.object({
  text: z.string(),
  /** Each hit in `text`, as [start, end) character offsets. */
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type SearchSnippet = z.infer<typeof searchSnippetSchema>;

export const searchHitSchema = z.object({
  columnKey: z.string(),
  columnName: z.string(),
  /** The whole matching value. */
  value: z.string(),
  /** Rows holding this value in this column. */
  count: z.number().int(),
  snippet: searchSnippetSchema,
  /** One row holding the value (spec: sampleHits[].document.fullRecord); null when it is gone. */
  document: z.object({ fullRecord: z.record(z.string(), z.unknown()).nullable() }),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchColumnCountSchema = z.object({
  columnKey: z.string(),
  columnName: z.string(),
  count: z.number().int(),
});

export const searchGroupSchema = z.object({
  /** `<integration>.<schema>.<table>` (spec): the integration's id, its warehouse schema and the dataset's table. */
  value: z.string(),
  /** Matching rows (per column) in this table. */
  count: z.number().int(),
  sampleHits: z.array(searchHitSchema),
  tableType: z.enum(TABLE_TYPES),
  tableId: z.string(),
  tableName: z.string(),
  /** The dataset the table belongs to: its integration, 'Tables' or 'Models'. */
  groupId: z.string(),
  groupName: z.string(),
  /** Matching rows per column, most first: each links to the table filtered on that column. */
  columns: z.array(searchColumnCountSchema),
});
export type SearchGroup = z.infer<typeof searchGroupSchema>;

export const searchIndexingSchema = z.object({
  /** Tables whose latest changes are not indexed yet. */
  pending: z.number().int(),
  /** Seconds since the oldest of those changes; 0 when none waits. */
  lagSeconds: z.number(),
  lastIndexedAt: z.string().nullable(),
});

export const searchResponseSchema = z.object({
  query: z.string(),
  totalHits: z.number().int(),
  /** False when more values matched than were counted (a very common prefix). */
  complete: z.boolean(),
  groups: z.array(searchGroupSchema),
  indexing: searchIndexingSchema,
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

// ---- Admin: /admin/index -------------------------------------------------------------------------

export const searchIndexAccountSchema = z.object({
  accountId: z.string(),
  accountName: z.string(),
  sizeBytes: z.number().int(),
  documents: z.number().int(),
  tables: z.number().int(),
  lastIndexedAt: z.string().nullable(),
  pending: z.number().int(),
  lagSeconds: z.number(),
  building: z.boolean(),
});
export type SearchIndexAccount = z.infer<typeof searchIndexAccountSchema>;

export const searchExclusionSchema = z.object({
  accountId: z.string(),
  tableType: z.enum(TABLE_TYPES),
  tableId: z.string(),
  tableName: z.string(),
  /** null: the whole table is left out. */
  columnKey: z.string().nullable(),
  columnName: z.string().nullable(),
});
export type SearchExclusion = z.infer<typeof searchExclusionSchema>;

export const searchAccountParamsSchema = z.object({ accountId: z.string().min(1).max(100) });

export const searchExclusionInputSchema = z.object({
  accountId: z.string().min(1).max(100),
  tableType: z.enum(TABLE_TYPES),
  tableId: z.string().min(1).max(100),
  columnKey: z.string().min(1).max(200).nullable().default(null),
});
export type SearchExclusionInput = z.output<typeof searchExclusionInputSchema>;

/** The account's searchable tables and columns, for choosing exclusions. */
export const searchTableOptionSchema = z.object({
  tableType: z.enum(TABLE_TYPES),
  tableId: z.string(),
  tableName: z.string(),
  groupName: z.string(),
  columns: z.array(z.object({ columnKey: z.string(), columnName: z.string() })),
});
export type SearchTableOption = z.infer<typeof searchTableOptionSchema>;

// ---- Words and snippets --------------------------------------------------------------------------

/** Lower case without diacritics, as the index's tokenizer (unicode61 remove_diacritics 2) sees text. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The query's words: runs of letters and digits, folded; each matches words starting with it. */
export function searchWords(query: string): string[] {
  return foldText(query).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Character offsets in `text` of words starting with one of `words` (folded per character so the
 * offsets stay those of the original text, even where folding drops marks).
 */
function matchRanges(text: string, words: string[]): [number, number][] {
  const ranges: [number, number][] = [];
  const re = /[\p{L}\p{N}\p{M}]+/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const folded = foldText(m[0]);
    const word = words.filter((w) => folded.startsWith(w)).sort((a, b) => b.length - a.length)[0];
    if (!word) continue;
    // Map the folded prefix's length back onto the original characters.
    let end = m.index;
    let taken = 0;
    while (end < m.index + m[0].length && taken < word.length) {
      taken += foldText(text[end] ?? '').length;
      end += 1;
    }
    while (end < m.index + m[0].length && /\p{M}/u.test(text[end] ?? '')) end += 1;
    ranges.push([m.index, end]);
  }
  return ranges;
}

/**
 * The text shortened to `length` characters around its first match ('…' where cut), with every
 * match inside it marked.
 */
export function snippetOf(value: string, words: string[], length = SEARCH_SNIPPET_LENGTH): SearchSnippet {
  const text = value.replace(/\s+/g, ' ');
  const ranges = matchRanges(text, words);
  if (text.length <= length) return { text, highlights: ranges };
  const first = ranges[0] ?? [0, 0];
  const matchLength = first[1] - first[0];
  let start = Math.max(0, first[0] - Math.floor((length - matchLength) / 2));
  start = Math.min(start, text.length - length);
  const end = start + length;
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const shift = prefix.length - start;
  return {
    text: `${prefix}${text.slice(start, end)}${suffix}`,
    highlights: ranges
      .filter(([s, e]) => s >= start && e <= end)
      .map(([s, e]) => [s + shift, e + shift] as [number, number]),
  };
}

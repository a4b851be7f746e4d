/**
 * Recent answers: the rows of recent page and count queries over stored relations, so the same
 * request again (a table reopened, the grid remounting, a colleague on the same table) costs no
 * DuckDB work. Like ordered copies, an answer is kept under the relation's version read before the
 * query ran, and is served only while that version is current: every writer goes through
 * `exclusive('table:...')`, which moves the version on, so an answer can never outlive a write.
 *
 * Bounded by entries and by rows, least recently used dropped first. Answers are shared, never
 * copied: callers must not change the rows they are given (they are frozen to make sure).
 */
import type { ResultRow } from '../../engine';

export interface RecentAnswerSettings {
  /** Answers kept across all accounts; 0 turns the store off. */
  maxEntries: number;
  /** Rows kept across all answers. */
  maxRows: number;
}

export const DEFAULT_RECENT_ANSWER_SETTINGS: RecentAnswerSettings = { maxEntries: 256, maxRows: 50_000 };

interface Entry {
  relationKey: string;
  version: number;
  rows: readonly ResultRow[];
}

export interface RecentAnswerStats {
  hits: number;
  misses: number;
}

export class RecentAnswers {
  /** In use order: the first entry is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private rowsKept = 0;
  readonly stats: RecentAnswerStats = { hits: 0, misses: 0 };

  constructor(private readonly settings: RecentAnswerSettings = DEFAULT_RECENT_ANSWER_SETTINGS) {}

  /** The answer to `queryKey` over `relation` at `version`, if one is kept. */
  get(accountId: string, relation: string, version: number, queryKey: string): readonly ResultRow[] | undefined {
    const key = `${accountId}\0${relation}\0${queryKey}`;
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) {
      if (entry) this.delete(key, entry);
      this.stats.misses += 1;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.stats.hits += 1;
    return entry.rows;
  }

  /** Keeps an answer computed from `relation` as it was at `version` (read before the query ran). */
  put(accountId: string, relation: string, version: number, queryKey: string, rows: ResultRow[]): void {
    if (this.settings.maxEntries < 1 || rows.length > this.settings.maxRows) return;
    const key = `${accountId}\0${relation}\0${queryKey}`;
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    for (const row of rows) Object.freeze(row);
    this.entries.set(key, { relationKey: `${accountId}\0${relation}`, version, rows: Object.freeze(rows) });
    this.rowsKept += rows.length;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.settings.maxEntries && this.rowsKept <= this.settings.maxRows) break;
      this.delete(oldest, entry);
    }
  }

  /** A write settled: the relation's answers can never be served again, so their memory is freed now. */
  relationChanged(accountId: string, relation: string): void {
    const relationKey = `${accountId}\0${relation}`;
    for (const [key, entry] of this.entries) if (entry.relationKey === relationKey) this.delete(key, entry);
  }

  /** Forgets every answer (e.g. for measuring the work they spare). */
  clear(): void {
    this.entries.clear();
    this.rowsKept = 0;
  }

  get size(): { entries: number; rows: number } {
    return { entries: this.entries.size, rows: this.rowsKept };
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.rowsKept -= entry.rows.length;
  }
}

/**
 * What one account's ordered copies are (see ordered-copies.ts): the copies made, under the relation
 * version each was made from, least recently used first out; and the builds, one at a time with at
 * most one waiting (a newer request replaces it). Plain state and no SQL, so every decision about a
 * copy is synchronous and cannot interleave with another request's.
 */
import type { OrderedCopy, OrderedCopyShape } from '../../engine';

/** The database the copies live in: a file per account, attached to its instance (account-instances.ts). */
export const ORDERED_COPIES_DATABASE = 'ordered_copies';
/** Its file in the account's folder; deleted and made anew whenever the instance opens. */
export const ORDERED_COPIES_FILE = 'ordered-copies.duckdb';

export interface OrderedCopySettings {
  /** Relations known to hold fewer rows are always paged with plain SQL. */
  minRows: number;
  /** Copies kept per account; 0 turns ordered copies off. */
  maxCopies: number;
  /** Rows of all of an account's copies together. */
  maxRows: number;
}

export const DEFAULT_ORDERED_COPY_SETTINGS: OrderedCopySettings = {
  minRows: 200_000,
  maxCopies: 4,
  maxRows: 40_000_000,
};

/** A copy to make: the copy of `relation`'s rows that `copy.select` gives. */
export interface CopyRequest {
  /** Names the copy's statement (relation, columns, filters, order); the same request, the same key. */
  key: string;
  /** Names the filters alone: copies with one filter key all hold the same number of rows. */
  filterKey: string;
  /** `schema.name`, as in the relation's `exclusive('table:...')` lock. */
  relation: string;
  copy: OrderedCopy;
}

export interface CopyEntry {
  key: string;
  filterKey: string;
  relation: string;
  /** The relation's version read before the copy was made. */
  version: number;
  /** The table in ORDERED_COPIES_DATABASE. */
  name: string;
  shape: OrderedCopyShape;
  rowCount: number;
  lastUsed: number;
}

/** Counters for tests and the benchmark: where answers came from, and what the builds did. */
export interface CopyStats {
  /** Pages and counts answered from a copy. */
  hits: number;
  /** Requests a copy would have served, answered with plain SQL as none was ready. */
  misses: number;
  /** Pages without a copy read by their row-key bound (ordered-copies.ts, plainPage), a cheaper plain page. */
  keyBound: number;
  builds: number;
  failures: number;
  /** Copies made from a version that a write had moved on from meanwhile, dropped unused. */
  discarded: number;
  evicted: number;
}

/** How a request for a build treats one already waiting. */
export type QueueMode = 'replace' | 'if-free';

const MAX_FAILED_KEYS = 1_000;

const failedKey = (request: CopyRequest, version: number) => `${request.relation}\0${request.key}@${version}`;

export class AccountCopies {
  readonly stats: CopyStats = { hits: 0, misses: 0, keyBound: 0, builds: 0, failures: 0, discarded: 0, evicted: 0 };
  private readonly entries = new Map<string, CopyEntry>();
  private building: CopyRequest | null = null;
  private pending: CopyRequest | null = null;
  /** Builds that failed (`failedKey`): not tried again until the relation changes. */
  private readonly failed = new Set<string>();
  private clock = 0;
  private names = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(readonly settings: OrderedCopySettings) {}

  /** The copy of `key` made at `version`, marked as just used. */
  find(key: string, version: number): CopyEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    entry.lastUsed = ++this.clock;
    return entry;
  }

  /** Any copy of `relation` at `version` with these filters (its row count is the filtered count). */
  findByFilter(filterKey: string, relation: string, version: number): CopyEntry | undefined {
    for (const entry of this.entries.values()) {
      if (entry.filterKey === filterKey && entry.relation === relation && entry.version === version) {
        entry.lastUsed = ++this.clock;
        return entry;
      }
    }
    return undefined;
  }

  /** Whether any copy of `relation` at `version` is kept (if not, a cheap request need not look further). */
  hasRelation(relation: string, version: number): boolean {
    for (const entry of this.entries.values())
      if (entry.relation === relation && entry.version === version) return true;
    return false;
  }

  /** Whether a copy of these filters is made or being made (a count need not ask for another). */
  coversFilter(filterKey: string): boolean {
    if (this.building?.filterKey === filterKey || this.pending?.filterKey === filterKey) return true;
    return [...this.entries.values()].some((entry) => entry.filterKey === filterKey);
  }

  /** A table name no copy of this instance has had. */
  newName(key: string): string {
    this.names += 1;
    return `o_${key.slice(0, 12)}_${this.names}`;
  }

  /**
   * Asks for a build of `request` at the relation's `version`: 'start' when the caller should start
   * it now (nothing is building), 'queued' when it waits for the running build, 'skip' when it is
   * made, being made, failed at this version, or not wanted in `mode` 'if-free'.
   */
  enqueue(request: CopyRequest, version: number, mode: QueueMode): 'start' | 'queued' | 'skip' {
    if (this.settings.maxCopies < 1 || this.failed.has(failedKey(request, version))) return 'skip';
    if (this.entries.get(request.key)?.version === version || this.building?.key === request.key) return 'skip';
    if (this.building === null) {
      this.building = request;
      return 'start';
    }
    if (mode === 'if-free' && this.pending !== null) return 'skip';
    this.pending = request;
    return 'queued';
  }

  /** Ends the running build; returns the waiting one, now running, for the caller to start. */
  finishBuild(): CopyRequest | null {
    this.building = this.pending;
    this.pending = null;
    if (this.building === null) for (const resolve of this.idleWaiters.splice(0)) resolve();
    return this.building;
  }

  /** Not to be built again at this version: it failed, or (`failure` false) it alone is over maxRows. */
  markFailed(request: CopyRequest, version: number, failure = true): void {
    if (this.failed.size >= MAX_FAILED_KEYS) this.failed.clear();
    this.failed.add(failedKey(request, version));
    if (failure) this.stats.failures += 1;
  }

  /**
   * Keeps a finished copy and returns the copies that no longer fit (least recently used first; the
   * new one too when it alone is over the row limit), already forgotten: the caller drops their tables.
   */
  add(entry: Omit<CopyEntry, 'lastUsed'>): CopyEntry[] {
    const previous = this.entries.get(entry.key);
    this.entries.delete(entry.key);
    const evicted: CopyEntry[] = previous ? [previous] : [];
    this.entries.set(entry.key, { ...entry, lastUsed: ++this.clock });
    const { maxCopies, maxRows } = this.settings;
    let rows = [...this.entries.values()].reduce((sum, e) => sum + e.rowCount, 0);
    while (this.entries.size > maxCopies || (rows > maxRows && this.entries.size > 0)) {
      const oldest = [...this.entries.values()].reduce((a, b) => (b.lastUsed < a.lastUsed ? b : a));
      this.entries.delete(oldest.key);
      rows -= oldest.rowCount;
      evicted.push(oldest);
      this.stats.evicted += 1;
    }
    return evicted;
  }

  /** Forgets a copy (e.g. one that could not be read); true when it was still kept. */
  remove(entry: CopyEntry): boolean {
    if (this.entries.get(entry.key) !== entry) return false;
    this.entries.delete(entry.key);
    return true;
  }

  /** A write moved `relation` on: forgets its copies (returned, for dropping) and a build waiting for it. */
  relationChanged(relation: string): CopyEntry[] {
    const dropped = [...this.entries.values()].filter((entry) => entry.relation === relation);
    for (const entry of dropped) this.entries.delete(entry.key);
    if (this.pending?.relation === relation) this.pending = null;
    for (const failed of [...this.failed]) if (failed.startsWith(`${relation}\0`)) this.failed.delete(failed);
    return dropped;
  }

  /** The instance opened or closed: its copies file is gone, so every copy is. */
  reset(): void {
    this.entries.clear();
    this.failed.clear();
  }

  /** Copies kept now, most recently used last (for tests and diagnostics). */
  list(): CopyEntry[] {
    return [...this.entries.values()].sort((a, b) => a.lastUsed - b.lastUsed);
  }

  /** Resolves once no build is running or waiting. */
  idle(): Promise<void> {
    if (this.building === null) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}

/** Every account's copies in this process, made on first use. */
export class OrderedCopyStores {
  private readonly accounts = new Map<string, AccountCopies>();

  constructor(readonly settings: OrderedCopySettings = DEFAULT_ORDERED_COPY_SETTINGS) {}

  forAccount(accountId: string): AccountCopies {
    let copies = this.accounts.get(accountId);
    if (!copies) {
      copies = new AccountCopies(this.settings);
      this.accounts.set(accountId, copies);
    }
    return copies;
  }
}

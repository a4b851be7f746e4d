import fs from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { accountDir, warehouseFile, warehouseFileFolders } from './account-paths';
import { createConnectionPool, type ConnectionPool } from './connection-pool';
import type { Gate } from './gate';
import { ORDERED_COPIES_DATABASE, ORDERED_COPIES_FILE } from './ordered-copy-store';
import { quoteIdentifier, quoteString } from './quote';
import { WRITES_TABLE_DDL } from './write-markers';

export interface InstanceSettings {
  dataDir: string;
  /** DuckDB's memory_limit per open instance, e.g. '1GB'. */
  memoryLimit: string;
  /** DuckDB worker threads per open instance. */
  threads: number;
  /** An instance nobody used for this long is closed, releasing its memory and file. */
  idleMs: number;
  maxIdleConnections: number;
}

/** A connection lent out of an account's instance; the instance stays open until every lease is back. */
export interface Lease {
  connection: DuckDBConnection;
  release(discard?: boolean): void;
  /**
   * How far the statement running on this connection has got, 0..1; null when DuckDB does not track
   * it (a connection other than the watched one, or no statement long enough yet).
   */
  progress(): number | null;
}

interface Entry {
  instance: DuckDBInstance;
  pool: ConnectionPool;
  /**
   * The one connection on which DuckDB tracks a statement's progress (set up before the instance is
   * locked; tracking is a per-connection setting). Lent for long writes such as imports; null once
   * discarded. Only this one tracks, so pages and counts pay nothing for it.
   */
  watched: DuckDBConnection | null;
  watchedLent: boolean;
  leases: number;
  idleTimer: NodeJS.Timeout | null;
  shut: boolean;
}

export interface InstanceHooks {
  /** The instance opened (its ordered copies file is new) or closed (the file is gone with it). */
  reset?(accountId: string): void;
  /**
   * The warehouse's log could not be replayed, so it was moved to `savedAs` and the warehouse opened
   * as of its last checkpoint.
   */
  logSetAside?(accountId: string, savedAs: string, error: Error): void;
  /**
   * The first time this process opens the account's warehouse, before anyone else may use it: to
   * finish or forget writes a crash interrupted and sweep what they left. Throwing fails the open.
   */
  firstOpen?(accountId: string, lease: Lease): Promise<void>;
}

/**
 * One DuckDB instance per account file, opened on first use and closed when idle or on close().
 * Each instance has the account's ordered copies file attached as ORDERED_COPIES_DATABASE, deleted
 * and made anew on open, so copies never outlive the instance that made them. Then the instance is
 * locked down: files only in the account's own scratch folders, no extensions, settings locked.
 */
export interface AccountInstances {
  /** A connection; `watched` asks for the one that tracks progress, when it is free (else any). */
  lease(accountId: string, options?: { watched?: boolean }): Promise<Lease>;
  isOpen(accountId: string): boolean;
  openAccounts(): string[];
  close(): Promise<void>;
}

/** The running statement's progress on a connection that tracks it, 0..1; null before DuckDB knows (-1). */
function progressOf(connection: DuckDBConnection): number | null {
  const { percentage } = connection.progress;
  return percentage >= 0 ? Math.min(1, percentage / 100) : null;
}

/** DuckDB's answer when its log holds a write pattern it cannot replay (seen with 1.5.6). */
const UNREPLAYABLE_LOG = /Failure while replaying WAL/i;

/** Settings fixed when the instance is created: no extension is ever installed or loaded on its own. */
function creationOptions(settings: InstanceSettings): Record<string, string> {
  return {
    memory_limit: settings.memoryLimit,
    threads: String(settings.threads),
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
    allow_unsigned_extensions: 'false',
  };
}

export function createAccountInstances(
  settings: InstanceSettings,
  gate: Gate,
  hooks: InstanceHooks = {},
): AccountInstances {
  const entries = new Map<string, Entry>();
  const opening = new Map<string, Promise<Entry>>();
  // Accounts this process has opened before: the first open finishes what a crash interrupted.
  const opened = new Set<string>();
  let closed = false;

  /**
   * Opens the file; when DuckDB cannot replay its log, the log is kept aside for the operator and the
   * warehouse opens as of its last checkpoint, so the account stays readable.
   */
  const createInstance = async (accountId: string): Promise<DuckDBInstance> => {
    const file = warehouseFile(settings.dataDir, accountId);
    const options = creationOptions(settings);
    try {
      return await gate.run(() => DuckDBInstance.create(file, options));
    } catch (error) {
      if (!(error instanceof Error) || !UNREPLAYABLE_LOG.test(error.message)) throw error;
      const savedAs = `${file}.wal.unreplayable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await fs.rename(`${file}.wal`, savedAs);
      hooks.logSetAside?.(accountId, savedAs, error);
      return gate.run(() => DuckDBInstance.create(file, options));
    }
  };

  const open = async (accountId: string): Promise<Entry> => {
    const folders = warehouseFileFolders(settings.dataDir, accountId);
    for (const folder of folders) await fs.mkdir(folder, { recursive: true });
    const instance = await createInstance(accountId);
    const pool = createConnectionPool(instance, gate, settings.maxIdleConnections);
    let watched: DuckDBConnection | null = null;
    try {
      watched = await setUp(accountId, instance, pool, folders);
      if (!opened.has(accountId) && hooks.firstOpen) {
        const connection = await pool.acquire();
        let discard = false;
        try {
          await hooks.firstOpen(accountId, {
            connection,
            release: (unusable = false) => (discard ||= unusable),
            progress: () => null,
          });
        } finally {
          pool.release(connection, discard);
        }
      }
    } catch (error) {
      watched?.disconnectSync();
      pool.close();
      instance.closeSync();
      throw error;
    }
    opened.add(accountId);
    const entry: Entry = { instance, pool, watched, watchedLent: false, leases: 0, idleTimer: null, shut: false };
    entries.set(accountId, entry);
    hooks.reset?.(accountId);
    return entry;
  };

  /**
   * On the instance's first connection, while settings can still change: the ordered copies file is
   * attached (an attachment belongs to the instance, so every connection sees it; deleted first,
   * now that this instance holds the warehouse file's lock), the write markers table made, and then
   * the instance locked down. After this no statement can reach a file outside `folders`, attach
   * one, install or load an extension, or change a setting. Returns the watched connection (Entry).
   */
  const setUp = async (
    accountId: string,
    instance: DuckDBInstance,
    pool: ConnectionPool,
    folders: string[],
  ): Promise<DuckDBConnection> => {
    const file = path.join(accountDir(settings.dataDir, accountId), ORDERED_COPIES_FILE);
    await Promise.all([fs.rm(file, { force: true }), fs.rm(`${file}.wal`, { force: true })]);
    const allowed = folders.map((folder) => quoteString(`${folder}${path.sep}`)).join(', ');
    const connection = await pool.acquire();
    const watched = await gate.run(() => instance.connect());
    try {
      // Tracked from a statement's start (progress_bar_time 0), never printed.
      await gate.run(() =>
        watched.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET progress_bar_time = 0'),
      );
      await gate.run(() =>
        connection.run(
          [
            `ATTACH ${quoteString(file)} AS ${quoteIdentifier(ORDERED_COPIES_DATABASE)}`,
            WRITES_TABLE_DDL,
            // UTC whatever the server's zone: DuckDB takes the process's TZ otherwise, so a server
            // started with TZ=Europe/Berlin read `2024-01-05 10:00` into a zoned column as 09:00 UTC
            // and cut days (date_trunc, pivots by day) at Berlin's midnight.
            "SET GLOBAL TimeZone = 'UTC'",
            `SET allowed_directories = [${allowed}]`,
            'SET enable_external_access = false',
            'SET lock_configuration = true',
          ].join(';\n'),
        ),
      );
      return watched;
    } catch (error) {
      watched.disconnectSync();
      throw error;
    } finally {
      pool.release(connection);
    }
  };

  const entryFor = async (accountId: string): Promise<Entry> => {
    const existing = entries.get(accountId);
    if (existing) return existing;
    let pending = opening.get(accountId);
    if (!pending) {
      pending = open(accountId).finally(() => opening.delete(accountId));
      opening.set(accountId, pending);
    }
    return pending;
  };

  const shut = (accountId: string, entry: Entry) => {
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.shut = true;
    entries.delete(accountId);
    // Disconnected now unless lent: then when it comes back (its release sees `shut`).
    if (!entry.watchedLent) entry.watched?.disconnectSync();
    entry.pool.close();
    entry.instance.closeSync();
    hooks.reset?.(accountId);
  };

  const released = (accountId: string, entry: Entry) => {
    entry.leases -= 1;
    if (entry.leases > 0 || closed) return;
    // unref: an idle warehouse must not keep the process (or a test run) alive.
    entry.idleTimer = setTimeout(() => {
      if (entry.leases === 0 && entries.get(accountId) === entry) shut(accountId, entry);
    }, settings.idleMs).unref();
  };

  return {
    async lease(accountId, options = {}) {
      if (closed) throw new Error('The warehouse is closed');
      let entry = await entryFor(accountId);
      // Closed for idleness while this call waited: open it again.
      while (entry.shut && !closed) entry = await entryFor(accountId);
      // Counted before the first await, so the idle timer cannot close the instance under this lease.
      entry.leases += 1;
      if (entry.idleTimer) clearTimeout(entry.idleTimer);
      entry.idleTimer = null;
      const lent = entry;
      if (options.watched && lent.watched && !lent.watchedLent) {
        const connection = lent.watched;
        lent.watchedLent = true;
        let returned = false;
        return {
          connection,
          release(discard = false) {
            if (returned) return;
            returned = true;
            lent.watchedLent = false;
            if (discard || lent.shut) {
              connection.disconnectSync();
              lent.watched = null;
            }
            released(accountId, lent);
          },
          progress: () => progressOf(connection),
        };
      }
      let connection: DuckDBConnection;
      try {
        connection = await entry.pool.acquire();
      } catch (error) {
        released(accountId, entry);
        throw error;
      }
      let returned = false;
      return {
        connection,
        release(discard = false) {
          if (returned) return;
          returned = true;
          entry.pool.release(connection, discard);
          released(accountId, entry);
        },
        progress: () => null,
      };
    },

    isOpen: (accountId) => entries.has(accountId),
    openAccounts: () => [...entries.keys()],

    async close() {
      closed = true;
      await Promise.allSettled(opening.values());
      for (const [accountId, entry] of [...entries]) shut(accountId, entry);
    },
  };
}

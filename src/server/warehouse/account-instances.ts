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
}

interface Entry {
  instance: DuckDBInstance;
  pool: ConnectionPool;
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
  lease(accountId: string): Promise<Lease>;
  isOpen(accountId: string): boolean;
  openAccounts(): string[];
  close(): Promise<void>;
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
    try {
      await setUp(accountId, pool, folders);
      if (!opened.has(accountId) && hooks.firstOpen) {
        const connection = await pool.acquire();
        let discard = false;
        try {
          await hooks.firstOpen(accountId, { connection, release: (unusable = false) => (discard ||= unusable) });
        } finally {
          pool.release(connection, discard);
        }
      }
    } catch (error) {
      pool.close();
      instance.closeSync();
      throw error;
    }
    opened.add(accountId);
    const entry: Entry = { instance, pool, leases: 0, idleTimer: null, shut: false };
    entries.set(accountId, entry);
    hooks.reset?.(accountId);
    return entry;
  };

  /**
   * On the instance's first connection, while settings can still change: the ordered copies file is
   * attached (an attachment belongs to the instance, so every connection sees it; deleted first,
   * now that this instance holds the warehouse file's lock), the write markers table made, and then
   * the instance locked down. After this no statement can reach a file outside `folders`, attach
   * one, install or load an extension, or change a setting.
   */
  const setUp = async (accountId: string, pool: ConnectionPool, folders: string[]) => {
    const file = path.join(accountDir(settings.dataDir, accountId), ORDERED_COPIES_FILE);
    await Promise.all([fs.rm(file, { force: true }), fs.rm(`${file}.wal`, { force: true })]);
    const allowed = folders.map((folder) => quoteString(`${folder}${path.sep}`)).join(', ');
    const connection = await pool.acquire();
    try {
      await gate.run(() =>
        connection.run(
          [
            `ATTACH ${quoteString(file)} AS ${quoteIdentifier(ORDERED_COPIES_DATABASE)}`,
            WRITES_TABLE_DDL,
            `SET allowed_directories = [${allowed}]`,
            'SET enable_external_access = false',
            'SET lock_configuration = true',
          ].join(';\n'),
        ),
      );
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
    async lease(accountId) {
      if (closed) throw new Error('The warehouse is closed');
      let entry = await entryFor(accountId);
      // Closed for idleness while this call waited: open it again.
      while (entry.shut && !closed) entry = await entryFor(accountId);
      // Counted before the first await, so the idle timer cannot close the instance under this lease.
      entry.leases += 1;
      if (entry.idleTimer) clearTimeout(entry.idleTimer);
      entry.idleTimer = null;
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

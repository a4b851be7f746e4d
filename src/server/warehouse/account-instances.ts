import fs from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { accountDir, warehouseFile, warehouseTempDir } from './account-paths';
import { createConnectionPool, type ConnectionPool } from './connection-pool';
import type { Gate } from './gate';
import { ORDERED_COPIES_DATABASE, ORDERED_COPIES_FILE } from './ordered-copy-store';
import { quoteIdentifier, quoteString } from './quote';

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

/** Told when an account's instance opens (its ordered copies file is new) or closes (the file is gone with it). */
export interface InstanceHooks {
  reset?(accountId: string): void;
}

/**
 * One DuckDB instance per account file, opened on first use and closed when idle or on close().
 * Each instance has the account's ordered copies file attached as ORDERED_COPIES_DATABASE, deleted
 * and made anew on open, so copies never outlive the instance that made them.
 */
export interface AccountInstances {
  lease(accountId: string): Promise<Lease>;
  isOpen(accountId: string): boolean;
  openAccounts(): string[];
  close(): Promise<void>;
}

export function createAccountInstances(
  settings: InstanceSettings,
  gate: Gate,
  hooks: InstanceHooks = {},
): AccountInstances {
  const entries = new Map<string, Entry>();
  const opening = new Map<string, Promise<Entry>>();
  // Accounts whose scratch folder this process has emptied; only once, as later files may be in use.
  const tidied = new Set<string>();
  let closed = false;

  const open = async (accountId: string): Promise<Entry> => {
    await fs.mkdir(accountDir(settings.dataDir, accountId), { recursive: true });
    const tempDir = warehouseTempDir(settings.dataDir, accountId);
    if (!tidied.has(accountId)) {
      // Scratch files of an earlier run (an export cut off by a crash) are of no use now.
      await fs.rm(tempDir, { recursive: true, force: true });
      tidied.add(accountId);
    }
    await fs.mkdir(tempDir, { recursive: true });
    const instance = await gate.run(() =>
      DuckDBInstance.create(warehouseFile(settings.dataDir, accountId), {
        memory_limit: settings.memoryLimit,
        threads: String(settings.threads),
      }),
    );
    const pool = createConnectionPool(instance, gate, settings.maxIdleConnections);
    try {
      await attachOrderedCopies(accountId, pool);
    } catch (error) {
      pool.close();
      instance.closeSync();
      throw error;
    }
    const entry: Entry = { instance, pool, leases: 0, idleTimer: null, shut: false };
    entries.set(accountId, entry);
    hooks.reset?.(accountId);
    return entry;
  };

  /**
   * Attached on the instance's first connection: an attached database belongs to the instance, so
   * every connection sees it. Deleted first, now that this instance holds the warehouse file's lock.
   */
  const attachOrderedCopies = async (accountId: string, pool: ConnectionPool) => {
    const file = path.join(accountDir(settings.dataDir, accountId), ORDERED_COPIES_FILE);
    await Promise.all([fs.rm(file, { force: true }), fs.rm(`${file}.wal`, { force: true })]);
    const connection = await pool.acquire();
    try {
      await gate.run(() =>
        connection.run(`ATTACH ${quoteString(file)} AS ${quoteIdentifier(ORDERED_COPIES_DATABASE)}`),
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

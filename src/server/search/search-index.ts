/**
 * Each account's search index (DATA_DIR/accounts/<id>/search.sqlite) and the work that keeps it
 * current. Changes queue a table (persisted in `search_pending`, so the lag survives a restart and
 * the work resumes); one table is indexed at a time for the whole app (build.ts, the writer thread),
 * so indexing never takes more than its share of a small machine.
 *
 * What queues a table: a sync's `syncFinished` (its datasets, after its rows committed), any settled
 * write of a warehouse relation (static table edits and imports, a model version published, webhook
 * rows), an exclusion changed, a rebuild. A table that is no longer in the account's catalogue has
 * its entries removed when its turn comes (deleting an integration or a table).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { TableType } from '../../shared/tables';
import type { Deps } from '../context';
import { accountDir } from '../warehouse/account-paths';
import { STAGING_PREFIX } from '../modules/integrations/physical';
import { indexTable, indexedState } from './build';
import { listSearchTables, parseTableKey, tableKey, tablesChangedWith, type SearchTable } from './catalog';
import { createIndexWriter } from './index-worker';

export interface IndexStatus {
  pending: number;
  lagSeconds: number;
  lastIndexedAt: string | null;
}

export interface SearchIndex {
  /** The account's index file (it may not exist yet). */
  file(accountId: string): string;
  /** A read-only connection to the account's index, or null before its first build. */
  reader(accountId: string): Database.Database | null;
  queue(accountId: string, type: TableType, id: string): Promise<void>;
  /** Queues every table of the account, and drops entries of tables it no longer has. */
  rebuild(accountId: string): Promise<void>;
  /**
   * Queues every table of each account that has tables but no index file yet (data that came
   * before search: an upgrade, or an index file removed), so search finds it without a Rebuild.
   */
  indexMissing(): Promise<number>;
  /** Drops the entries of tables the account no longer has (a deleted integration or table). */
  removeGone(accountId: string): Promise<unknown>;
  status(accountId: string): Promise<IndexStatus>;
  /** Whether the account's tables are being indexed right now. */
  building(accountId: string): boolean;
  /** Resolves when nothing is queued or being indexed (tests, benchmarks). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const indexes = new WeakMap<Deps, SearchIndex>();

/** The app's one search index (created with the services; later calls get the same one). */
/**
 * A table whose relation cannot be bound any more: dropped with its integration (catalog errors), or
 * a model version whose source column was removed (binder errors, e.g. after a re-import).
 */
const UNREADABLE = /does not exist|not found|Binder Error|Catalog Error/i;

export function searchIndexOf(deps: Deps): SearchIndex {
  let index = indexes.get(deps);
  if (!index) {
    index = createSearchIndex(deps);
    indexes.set(deps, index);
  }
  return index;
}

function createSearchIndex(deps: Deps): SearchIndex {
  const { db } = deps;
  const writer = createIndexWriter();
  const readers = new Map<string, Database.Database>();
  let running: Promise<void> | null = null;
  let current: string | null = null;
  let closed = false;
  const idleWaiters: (() => void)[] = [];

  const file = (accountId: string) => path.join(accountDir(deps.config.dataDir, accountId), 'search.sqlite');

  const reader = (accountId: string) => {
    let connection = readers.get(accountId);
    if (connection) return connection;
    const at = file(accountId);
    if (!fs.existsSync(at)) return null;
    connection = new Database(at, { readonly: true, fileMustExist: true });
    readers.set(accountId, connection);
    return connection;
  };

  let queueing = 0;
  async function queue(accountId: string, type: TableType, id: string) {
    queueing += 1;
    try {
      await queueRow(accountId, type, id);
    } finally {
      queueing -= 1;
    }
    kick();
  }

  async function queueRow(accountId: string, type: TableType, id: string) {
    await db
      .insertInto('search_pending')
      .values({ account_id: accountId, table_type: type, table_id: id, since: deps.clock().toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  function kick() {
    if (running || closed) return;
    running = drain()
      .catch((error: unknown) => console.error('Search indexing stopped', error))
      .finally(() => {
        running = null;
        if (closed) return;
        for (const resolve of idleWaiters.splice(0)) resolve();
      });
  }

  async function drain() {
    for (;;) {
      if (closed) return;
      const next = await db.selectFrom('search_pending').selectAll().orderBy('since').limit(1).executeTakeFirst();
      if (!next) return;
      // Taken off before the work: a change landing meanwhile queues the table again.
      await db
        .deleteFrom('search_pending')
        .where('account_id', '=', next.account_id)
        .where('table_type', '=', next.table_type)
        .where('table_id', '=', next.table_id)
        .execute();
      current = next.account_id;
      try {
        await indexOne(next.account_id, tableKey(next.table_type as TableType, next.table_id));
      } catch (error) {
        console.error(`Could not index ${next.table_type} ${next.table_id} for search`, error);
      } finally {
        current = null;
      }
    }
  }

  async function exclusionsOf(accountId: string, table: SearchTable) {
    const rows = await db
      .selectFrom('search_exclusions')
      .select('column_key')
      .where('account_id', '=', accountId)
      .where('table_type', '=', table.type)
      .where('table_id', '=', table.id)
      .execute();
    return {
      whole: rows.some((r) => r.column_key === null),
      columns: new Set(rows.flatMap((r) => r.column_key ?? [])),
    };
  }

  async function indexOne(accountId: string, key: string) {
    const account = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) return;
    const tables = await listSearchTables(db, accountId);
    const table = tables.find((t) => t.key === key);
    const at = file(accountId);
    const exclusions = table ? await exclusionsOf(accountId, table) : null;
    if (!table || exclusions?.whole) {
      if (fs.existsSync(at)) await writer.run({ op: 'remove', job: { file: at, tableKeys: [key] } });
      return;
    }
    fs.mkdirSync(path.dirname(at), { recursive: true });
    try {
      await indexTable({
        executor: deps.warehouse.forAccount(accountId),
        writer,
        file: at,
        table,
        excluded: exclusions?.columns ?? new Set(),
        before: indexedState(reader(accountId), key),
        now: deps.clock(),
      });
    } catch (error) {
      // The account was deleted while its table was being read: its folder (and index) went with it.
      if (!fs.existsSync(path.dirname(at))) return;
      // Its rows can no longer be read: nothing to answer from, and searching them would lead to a
      // view that fails. Indexed again when it changes (a new model version, a fixed source).
      if (UNREADABLE.test(String(error))) {
        await writer.run({ op: 'remove', job: { file: at, tableKeys: [key] } });
        return;
      }
      throw error;
    }
  }

  /** Removes the entries of tables the account no longer has; returns the tables it has. */
  async function removeGone(accountId: string) {
    const tables = await listSearchTables(db, accountId);
    const known = new Set(tables.map((t) => t.key));
    const connection = reader(accountId);
    if (connection) {
      let indexed: { table_key: string }[] = [];
      try {
        indexed = connection.prepare('SELECT table_key FROM tables').all() as { table_key: string }[];
      } catch {
        // Being created: nothing in it yet.
      }
      const gone = indexed.map((r) => r.table_key).filter((k) => !known.has(k));
      if (gone.length > 0) await writer.run({ op: 'remove', job: { file: file(accountId), tableKeys: gone } });
    }
    return tables;
  }

  async function indexMissing(): Promise<number> {
    let queued = 0;
    const accounts = await db.selectFrom('accounts').select('id').execute();
    for (const { id } of accounts) {
      if (fs.existsSync(file(id))) continue;
      for (const table of await listSearchTables(db, id)) {
        await queueRow(id, table.type, table.id);
        queued += 1;
      }
    }
    if (queued > 0) kick();
    return queued;
  }

  async function rebuild(accountId: string) {
    const tables = await removeGone(accountId);
    for (const table of tables) await queue(accountId, table.type, table.id);
  }

  // A sync's datasets, once its rows are committed (the sync runner emits it after the run).
  deps.events.on('syncFinished', async (event) => {
    if (event.datasets.length === 0) return;
    const names = event.datasets.map((d) => d.name);
    const rows = await db
      .selectFrom('integration_datasets')
      .select('id')
      .where('integration_id', '=', event.integrationId)
      .where('name', 'in', names)
      .execute();
    for (const row of rows) await queue(event.accountId, 'IntegrationDataset', row.id);
  });

  // Any other settled write of a table's rows (static tables, published models, webhook rows):
  // after a short pause, so a burst of edits is indexed once.
  const changed = new Map<string, Set<string>>();
  let timer: NodeJS.Timeout | null = null;
  deps.warehouse.onRelationChanged((accountId, relation) => {
    const name = relation.slice(relation.indexOf('.') + 1);
    if (closed || name.startsWith(STAGING_PREFIX) || name.startsWith('_')) return;
    const set = changed.get(accountId) ?? new Set();
    set.add(relation);
    changed.set(accountId, set);
    timer ??= setTimeout(() => {
      timer = null;
      const batch = [...changed];
      changed.clear();
      queueing += 1;
      void (async () => {
        for (const [accountId, relations] of batch) {
          for (const table of await tablesChangedWith(db, accountId, relations)) {
            await queue(accountId, table.type, table.id);
          }
        }
      })()
        .catch((error: unknown) => console.error('Could not queue search indexing', error))
        .finally(() => {
          queueing -= 1;
        });
    }, 300);
    timer.unref();
  });

  // Work queued before the last stop resumes.
  kick();

  return {
    file,
    reader,
    queue,
    rebuild,
    indexMissing,
    removeGone,
    async status(accountId) {
      const pending = await db
        .selectFrom('search_pending')
        .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('since').as('since')])
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      const connection = reader(accountId);
      let last: string | null = null;
      try {
        last = connection
          ? (connection.prepare('SELECT max(indexed_at) AS at FROM tables').get() as { at: string | null }).at
          : null;
      } catch {
        // The file is being created by the writer: nothing indexed yet.
      }
      const since = pending.since ? Date.parse(String(pending.since)) : null;
      const busy = current === accountId;
      return {
        pending: Number(pending.n) + (busy ? 1 : 0),
        lagSeconds: since === null ? 0 : Math.max(0, (deps.clock().getTime() - since) / 1000),
        lastIndexedAt: last,
      };
    },
    building: (accountId) => current === accountId,
    async idle() {
      // A change waits out its pause, then its queueing, then the work.
      while (!closed && (running || timer || queueing > 0)) {
        if (running) await new Promise<void>((resolve) => idleWaiters.push(resolve));
        else await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
      for (const resolve of idleWaiters.splice(0)) resolve();
      for (const connection of readers.values()) connection.close();
      readers.clear();
      await writer.close();
    },
  };
}

export { parseTableKey };

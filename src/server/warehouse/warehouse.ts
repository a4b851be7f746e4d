import type { Config } from '../config';
import { accountScratchDir, assertSafeAccountId, warehouseTempDir } from './account-paths';
import { createAccountInstances, type InstanceSettings } from './account-instances';
import { connectionOf, createExecutor } from './executor';
import { createGate } from './gate';
import { createCheckpointLock } from './checkpoint-lock';
import { createKeyedLock } from './keyed-lock';
import { dropCopies } from './ordered-copies';
import { OrderedCopyStores, type OrderedCopySettings } from './ordered-copy-store';
import { RecentAnswers, type RecentAnswerSettings } from './recent-answers';
import { createRelationVersions } from './relation-versions';
import { warehouseCallLimit } from './threadpool';
import type { WarehouseConnection, WarehouseExecutor } from './types';

export interface WarehouseOptions extends Omit<InstanceSettings, 'maxIdleConnections'> {
  /** DuckDB calls in flight across all accounts; by default what the libuv pool can spare. */
  callLimit?: number;
  /** Idle connections kept per instance for reuse. */
  maxIdleConnections?: number;
  /** Ordered copies of large relations (ordered-copies.ts); DEFAULT_ORDERED_COPY_SETTINGS when absent. */
  orderedCopies?: OrderedCopySettings;
  /** Recent page and count answers (recent-answers.ts); DEFAULT_RECENT_ANSWER_SETTINGS when absent. */
  recentAnswers?: RecentAnswerSettings;
}

/** The per-account DuckDB warehouses of `DATA_DIR/accounts/<id>/warehouse.duckdb`. */
export interface Warehouse {
  /** The account's executor; cheap, opens nothing until the first query. Throws on an unsafe id. */
  forAccount(accountId: string): WarehouseExecutor;
  isOpen(accountId: string): boolean;
  /** Opens the account's warehouse now (running its first-open hook), without a query. */
  open(accountId: string): Promise<void>;
  openAccounts(): string[];
  /** Closes every instance; for server shutdown. */
  close(): Promise<void>;
  /**
   * Called the first time this process opens an account's warehouse, before any other call can use
   * it (see account-instances.ts); one listener, set once by the app.
   */
  onFirstOpen(listener: (accountId: string, connection: WarehouseConnection) => Promise<void>): void;
  /** Called when an account's log could not be replayed and was moved to `savedAs`. */
  onLogSetAside(listener: (accountId: string, savedAs: string, error: Error) => void): void;
  /**
   * Called after each write of a relation (`exclusive('table:<schema>.<name>')`) settles, e.g. so
   * the search index picks up a static table's edits; listeners must only queue work.
   */
  onRelationChanged(listener: (accountId: string, relation: string) => void): void;
}

export function warehouseOptions(config: Config): WarehouseOptions {
  return {
    dataDir: config.dataDir,
    ...config.warehouse,
    orderedCopies: config.orderedCopies,
    recentAnswers: config.recentAnswers,
  };
}

export function createWarehouse(options: WarehouseOptions): Warehouse {
  const gate = createGate(options.callLimit ?? warehouseCallLimit());
  const copies = new OrderedCopyStores(options.orderedCopies);
  const checkpoints = createCheckpointLock();
  let firstOpen: ((accountId: string, connection: WarehouseConnection) => Promise<void>) | null = null;
  let logSetAside: ((accountId: string, savedAs: string, error: Error) => void) | null = null;
  const instances = createAccountInstances({ ...options, maxIdleConnections: options.maxIdleConnections ?? 4 }, gate, {
    reset: (accountId) => copies.forAccount(accountId).reset(),
    firstOpen: async (accountId, lease) => firstOpen?.(accountId, connectionOf(lease, gate)),
    logSetAside: (accountId, savedAs, error) => logSetAside?.(accountId, savedAs, error),
  });
  const versions = createRelationVersions();
  const answers = new RecentAnswers(options.recentAnswers);
  const parts = { instances, gate, locks: createKeyedLock(), versions, copies, answers, checkpoints };
  // An executor holds no state of its own (it leases from the shared parts), so one per account is
  // built once: every request asks for it, and building it (paths joined) cost more than its use.
  const executors = new Map<string, WarehouseExecutor>();
  const forAccount = (accountId: string) => {
    const known = executors.get(accountId);
    if (known) return known;
    assertSafeAccountId(accountId);
    const executor = createExecutor(parts, accountId, {
      tempDir: warehouseTempDir(options.dataDir, accountId),
      scratchDir: accountScratchDir(options.dataDir, accountId),
    });
    executors.set(accountId, executor);
    return executor;
  };
  // A write settled: the relation's copies and answers show rows it may have changed.
  versions.onBump((accountId, relation) => {
    answers.relationChanged(accountId, relation);
    const dropped = copies.forAccount(accountId).relationChanged(relation);
    if (dropped.length > 0) void dropCopies(forAccount(accountId), dropped);
  });
  return {
    forAccount,
    isOpen: (accountId) => instances.isOpen(accountId),
    async open(accountId) {
      assertSafeAccountId(accountId);
      (await instances.lease(accountId)).release();
    },
    openAccounts: () => instances.openAccounts(),
    close: () => instances.close(),
    onFirstOpen: (listener) => {
      firstOpen = listener;
    },
    onLogSetAside: (listener) => {
      logSetAside = listener;
    },
    onRelationChanged: (listener) => versions.onBump(listener),
  };
}

import type { Config } from '../config';
import { assertSafeAccountId, warehouseTempDir } from './account-paths';
import { createAccountInstances, type InstanceSettings } from './account-instances';
import { createExecutor } from './executor';
import { createGate } from './gate';
import { createKeyedLock } from './keyed-lock';
import { warehouseCallLimit } from './threadpool';
import type { WarehouseExecutor } from './types';

export interface WarehouseOptions extends Omit<InstanceSettings, 'maxIdleConnections'> {
  /** DuckDB calls in flight across all accounts; by default what the libuv pool can spare. */
  callLimit?: number;
  /** Idle connections kept per instance for reuse. */
  maxIdleConnections?: number;
}

/** The per-account DuckDB warehouses of `DATA_DIR/accounts/<id>/warehouse.duckdb`. */
export interface Warehouse {
  /** The account's executor; cheap, opens nothing until the first query. Throws on an unsafe id. */
  forAccount(accountId: string): WarehouseExecutor;
  isOpen(accountId: string): boolean;
  openAccounts(): string[];
  /** Closes every instance; for server shutdown. */
  close(): Promise<void>;
}

export function warehouseOptions(config: Config): WarehouseOptions {
  return { dataDir: config.dataDir, ...config.warehouse };
}

export function createWarehouse(options: WarehouseOptions): Warehouse {
  const gate = createGate(options.callLimit ?? warehouseCallLimit());
  const instances = createAccountInstances({ ...options, maxIdleConnections: options.maxIdleConnections ?? 4 }, gate);
  const parts = { instances, gate, locks: createKeyedLock() };
  return {
    forAccount(accountId) {
      assertSafeAccountId(accountId);
      return createExecutor(parts, accountId, warehouseTempDir(options.dataDir, accountId));
    },
    isOpen: (accountId) => instances.isOpen(accountId),
    openAccounts: () => instances.openAccounts(),
    close: () => instances.close(),
  };
}

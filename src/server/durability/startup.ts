/**
 * What the server does with its data folder before it serves anyone: throws away work files a crash
 * left (uploads, scratch files, exports), sets up the first-open hook that settles interrupted writes
 * and sweeps half-made relations in each account's warehouse, and settles at once the accounts that
 * have interrupted writes, so their runs and tables read right from the first request.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../context';
import {
  accountScratchDir,
  accountUploadsDir,
  accountsDir,
  warehouseSpillDir,
  warehouseTempDir,
} from '../warehouse/account-paths';
import type { WarehouseConnection } from '../warehouse/types';

/** Drops what a crash left in an account's warehouse (staging tables, relations with no metadata). */
export type LeftoverSweeper = (accountId: string, connection: WarehouseConnection) => Promise<void>;

/**
 * Empties every account's work folders, DuckDB's spill files included: nothing in them belongs to a
 * request of this process, and a kill mid-import or mid-sort leaves them behind for good.
 */
export async function sweepWorkFiles(dataDir: string): Promise<void> {
  // Scratch folder of earlier versions, shared by every account.
  await fs.rm(path.join(dataDir, 'tmp'), { recursive: true, force: true });
  const accounts = await fs.readdir(accountsDir(dataDir)).catch(() => [] as string[]);
  for (const accountId of accounts) {
    for (const folder of [warehouseTempDir, accountUploadsDir, accountScratchDir, warehouseSpillDir]) {
      let dir: string;
      try {
        dir = folder(dataDir, accountId);
      } catch {
        continue; // not an account folder
      }
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}

export async function prepareWarehouses(deps: Deps, sweepers: LeftoverSweeper[]): Promise<void> {
  await sweepWorkFiles(deps.config.dataDir);
  deps.warehouse.onLogSetAside((accountId, savedAs, error) => {
    console.error(
      `The warehouse log of account ${accountId} could not be replayed (${error.message.split('\n')[0]}). ` +
        `It was moved to ${savedAs}, and the warehouse opened as of its last checkpoint.`,
    );
    deps.writes.logSetAside(accountId);
  });
  deps.warehouse.onFirstOpen(async (accountId, connection) => {
    await deps.writes.recoverAccount(accountId, connection);
    for (const sweep of sweepers) await sweep(accountId, connection);
  });
  for (const accountId of await deps.writes.unsettledAccounts()) {
    try {
      await deps.warehouse.open(accountId);
    } catch (error) {
      // One account that cannot open must not keep the others from being served.
      console.error(`The warehouse of account ${accountId} could not be opened to settle interrupted writes`, error);
    }
  }
}

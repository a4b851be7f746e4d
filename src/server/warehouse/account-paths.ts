import path from 'node:path';

/** Account ids are UUIDs today; letters, digits, '-' and '_' keep any future id safe as one path segment. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Throws (a bug, not user input) unless the id can be used as a folder name without escaping DATA_DIR. */
export function assertSafeAccountId(accountId: string): void {
  if (!SAFE_ID.test(accountId)) throw new Error(`Unsafe account id for a warehouse path: ${JSON.stringify(accountId)}`);
}

/** `DATA_DIR/accounts/<accountId>` */
export function accountDir(dataDir: string, accountId: string): string {
  assertSafeAccountId(accountId);
  return path.join(dataDir, 'accounts', accountId);
}

/** `DATA_DIR/accounts/<accountId>/warehouse.duckdb` */
export function warehouseFile(dataDir: string, accountId: string): string {
  return path.join(accountDir(dataDir, accountId), 'warehouse.duckdb');
}

/** Scratch files of one account (exports on their way to a client); emptied whenever the instance opens. */
export function warehouseTempDir(dataDir: string, accountId: string): string {
  return path.join(accountDir(dataDir, accountId), 'tmp');
}

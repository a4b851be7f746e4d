import path from 'node:path';

/** Account ids are UUIDs today; letters, digits, '-' and '_' keep any future id safe as one path segment. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Throws (a bug, not user input) unless the id can be used as a folder name without escaping DATA_DIR. */
export function assertSafeAccountId(accountId: string): void {
  if (!SAFE_ID.test(accountId)) throw new Error(`Unsafe account id for a warehouse path: ${JSON.stringify(accountId)}`);
}

/** `DATA_DIR/accounts`: one folder per account. */
export function accountsDir(dataDir: string): string {
  return path.join(dataDir, 'accounts');
}

/** `DATA_DIR/accounts/<accountId>` */
export function accountDir(dataDir: string, accountId: string): string {
  assertSafeAccountId(accountId);
  return path.join(accountsDir(dataDir), accountId);
}

/** `DATA_DIR/accounts/<accountId>/warehouse.duckdb` */
export function warehouseFile(dataDir: string, accountId: string): string {
  return path.join(accountDir(dataDir, accountId), 'warehouse.duckdb');
}

/** Where DuckDB spills work that outgrows the memory limit (its default, `<file>.tmp`); it never empties it itself. */
export function warehouseSpillDir(dataDir: string, accountId: string): string {
  return `${warehouseFile(dataDir, accountId)}.tmp`;
}

/** Exports of one account on their way to a client. */
export function warehouseTempDir(dataDir: string, accountId: string): string {
  return path.join(accountDir(dataDir, accountId), 'tmp');
}

/** Uploaded files (a table's CSV import) until their import ends. */
export function accountUploadsDir(dataDir: string, accountId: string): string {
  return path.join(accountDir(dataDir, accountId), 'uploads');
}

/** Files a sync, a webhook call or an incoming mail hands to the warehouse, until it has read them. */
export function accountScratchDir(dataDir: string, accountId: string): string {
  return path.join(accountDir(dataDir, accountId), 'scratch');
}

/**
 * The folders an account's warehouse may read and write files in (DuckDB's allowed_directories):
 * only its own scratch folders, never the data folder, another account's files or the system's.
 * All of them hold only work in progress, emptied at start.
 */
export function warehouseFileFolders(dataDir: string, accountId: string): string[] {
  return [warehouseTempDir, accountUploadsDir, accountScratchDir].map((folder) => folder(dataDir, accountId));
}

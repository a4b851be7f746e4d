import { quoteIdentifier, quoteQualified } from './quote';
import type { WarehouseExecutor, WarehouseSession } from './types';

/**
 * Makes the table `staged` the table `target` (dropping the old one) in one transaction that writes
 * no rows: DROP and RENAME only, plus whatever `alongside` adds (e.g. a write marker, a count). If
 * the swap fails, `staged` is dropped and `target` is as it was.
 *
 * The staged rows must be committed before. DuckDB 1.5.6 cannot replay a log in which one
 * transaction changed a table's rows and then renamed it: after a kill the warehouse would not open
 * ("Failure while replaying WAL file"), or would silently lose the change. Every swap goes through
 * here so that pattern never reaches the log.
 */
export async function swapTable<T>(
  executor: WarehouseExecutor,
  schema: string,
  staged: string,
  target: string,
  alongside: (tx: WarehouseSession) => Promise<T>,
): Promise<T> {
  try {
    return await executor.transaction(async (tx) => {
      await tx.run(`DROP TABLE IF EXISTS ${quoteQualified(schema, target)}`);
      await tx.run(`ALTER TABLE ${quoteQualified(schema, staged)} RENAME TO ${quoteIdentifier(target)}`);
      return alongside(tx);
    });
  } catch (error) {
    await executor.run(`DROP TABLE IF EXISTS ${quoteQualified(schema, staged)}`).catch(() => undefined);
    throw error;
  }
}

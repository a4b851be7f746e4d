/**
 * Statements a signal can stop (an automation step cancelled or timed out): `work` runs on one
 * leased connection, and the signal aborting interrupts whatever statement that connection runs.
 * DuckDB then fails it with its INTERRUPT error, a transaction around it rolls back, and the caller
 * gets the signal's reason rather than DuckDB's words.
 */
import type { WarehouseConnection, WarehouseExecutor } from './types';

export async function interruptible<T>(
  executor: WarehouseExecutor,
  signal: AbortSignal,
  work: (connection: WarehouseConnection) => Promise<T>,
): Promise<T> {
  signal.throwIfAborted();
  return executor.session(async (connection) => {
    const stop = () => connection.interrupt();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const result = await work(connection);
      signal.throwIfAborted();
      return result;
    } catch (error) {
      signal.throwIfAborted();
      throw error;
    } finally {
      signal.removeEventListener('abort', stop);
    }
  });
}

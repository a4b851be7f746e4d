import type { WarehouseConnection } from './types';

/** How often a running statement's progress is read: often enough for a bar, cheap for DuckDB. */
const EVERY_MS = 100;

/**
 * Runs `work` (statements on `session`) and meanwhile passes how far DuckDB says the running
 * statement has got (0..1) to `report`, then 1 when it is done. Nothing is reported while DuckDB
 * does not know (or the connection does not track progress: WarehouseConnection.progress).
 */
export async function withProgress<T>(
  session: WarehouseConnection,
  work: () => Promise<T>,
  report: ((fraction: number) => void) | undefined,
): Promise<T> {
  if (!report) return work();
  const timer = setInterval(() => {
    const fraction = session.progress();
    if (fraction !== null) report(fraction);
  }, EVERY_MS);
  try {
    const result = await work();
    report(1);
    return result;
  } finally {
    clearInterval(timer);
  }
}

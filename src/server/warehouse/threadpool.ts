/**
 * libuv runs DuckDB calls, file reads and crypto on one thread pool, sized once from
 * UV_THREADPOOL_SIZE when it is first used (default 4). The warehouse keeps a few threads free
 * for everything else by admitting at most `pool size - RESERVED_THREADS` DuckDB calls at a time.
 */
export const DEFAULT_THREADPOOL_SIZE = 16;
export const RESERVED_THREADS = 2;
const LIBUV_DEFAULT = 4;

type Env = Record<string, string | undefined>;

/** Sets UV_THREADPOOL_SIZE unless the operator already did; must run before any async fs work. */
export function sizeThreadpool(env: Env = process.env): void {
  if (!env.UV_THREADPOOL_SIZE) env.UV_THREADPOOL_SIZE = String(DEFAULT_THREADPOOL_SIZE);
}

/** How many DuckDB calls may run at once with the pool this process has. */
export function warehouseCallLimit(env: Env = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE);
  const poolSize = Number.isInteger(size) && size > 0 ? size : LIBUV_DEFAULT;
  return Math.max(1, poolSize - RESERVED_THREADS);
}

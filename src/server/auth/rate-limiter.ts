/**
 * Fixed-window counters in memory: enough for one process, and forgotten on restart, which only
 * ever lets a user try again sooner.
 */
export interface RateLimiter {
  /** Counts one hit for `key`; false when the key is over `limit` in the current window. */
  hit(key: string, limit: number): boolean;
  /**
   * Counts one hit for `key` like `hit`; 0 when it is within `limit`, else the milliseconds until
   * the key's window ends (what a Retry-After header says).
   */
  wait(key: string, limit: number): number;
}

export function createRateLimiter(windowMs: number, clock: () => Date): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  function wait(key: string, limit: number): number {
    const now = clock().getTime();
    const current = windows.get(key);
    if (!current || now - current.start >= windowMs) {
      if (windows.size > 10_000) {
        for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
      }
      windows.set(key, { start: now, count: 1 });
      return limit >= 1 ? 0 : windowMs;
    }
    current.count += 1;
    return current.count <= limit ? 0 : current.start + windowMs - now;
  }
  return {
    hit: (key, limit) => wait(key, limit) === 0,
    wait,
  };
}

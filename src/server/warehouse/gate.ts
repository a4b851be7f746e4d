/**
 * Bounds how many DuckDB calls are in flight at once, across every account. Each call holds a libuv
 * pool thread until DuckDB answers, so without a bound a burst of slow queries would leave no thread
 * for file, crypto and compression work (see threadpool.ts).
 */
export interface Gate {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Calls running now; for tests and diagnostics. */
  readonly active: number;
  readonly waiting: number;
}

export function createGate(limit: number): Gate {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`A gate needs a positive limit, got ${limit}`);
  let active = 0;
  const queue: (() => void)[] = [];

  const enter = (): Promise<void> => {
    if (active < limit) {
      active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => queue.push(resolve));
  };
  const leave = () => {
    const next = queue.shift();
    // The slot passes straight to the next waiter, so `active` stays the same.
    if (next) next();
    else active -= 1;
  };

  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      await enter();
      try {
        return await work();
      } finally {
        leave();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}

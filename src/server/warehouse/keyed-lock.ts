/**
 * Runs work one at a time per key, in call order, within this process. DuckDB lets two transactions
 * change the same table (or create the same schema) only to fail one of them at commit with a
 * write-write conflict; waiting for each other turns that into "last write wins".
 */
export interface KeyedLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const current = previous.catch(() => undefined).then(work);
      tails.set(key, current);
      try {
        return await current;
      } finally {
        // The last in line removes the key, so the map does not grow with every table ever written.
        if (tails.get(key) === current) tails.delete(key);
      }
    },
  };
}

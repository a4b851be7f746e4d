/**
 * A first-in first-out queue of jobs with a concurrency limit, for work that runs in the background
 * (integration syncs). `close` stops taking jobs and waits for the ones running.
 */
export interface RunQueue {
  /** Queues a job; it starts when fewer than `limit` jobs run. */
  push(id: string, job: () => Promise<void>): void;
  has(id: string): boolean;
  running(): number;
  /** Resolves when nothing runs or waits (tests, shutdown). */
  idle(): Promise<void>;
  /** Drops waiting jobs (returned) and waits for running ones. */
  close(): Promise<string[]>;
}

export function createRunQueue(limit: number, onError: (error: unknown, id: string) => void): RunQueue {
  const waiting: { id: string; job: () => Promise<void> }[] = [];
  const active = new Map<string, Promise<void>>();
  let idleWaiters: (() => void)[] = [];
  let closed = false;

  const settleIdle = () => {
    if (active.size > 0 || waiting.length > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const pump = () => {
    while (!closed && active.size < limit && waiting.length > 0) {
      const next = waiting.shift() as { id: string; job: () => Promise<void> };
      const promise = Promise.resolve()
        .then(next.job)
        .catch((error: unknown) => onError(error, next.id))
        .finally(() => {
          active.delete(next.id);
          pump();
          settleIdle();
        });
      active.set(next.id, promise);
    }
  };

  return {
    push(id, job) {
      if (closed) return;
      waiting.push({ id, job });
      pump();
    },
    has: (id) => active.has(id) || waiting.some((w) => w.id === id),
    running: () => active.size,
    idle: () =>
      active.size === 0 && waiting.length === 0
        ? Promise.resolve()
        : new Promise((resolve) => idleWaiters.push(resolve)),
    async close() {
      closed = true;
      const dropped = waiting.splice(0).map((w) => w.id);
      await Promise.allSettled([...active.values()]);
      settleIdle();
      return dropped;
    },
  };
}

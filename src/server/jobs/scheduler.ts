/**
 * An in-process ticker: calls `tick` every `intervalMs` (never two at once) until stopped. The tick
 * reads the injected clock, so tests move time and call `tick()` themselves.
 */
export interface Scheduler {
  start(): void;
  /** One round now; resolves when it has finished. */
  tick(): Promise<void>;
  /** Stops the timer and waits for a round in progress. */
  stop(): Promise<void>;
}

export function createScheduler(
  intervalMs: number,
  round: () => Promise<void>,
  onError: (error: unknown) => void,
): Scheduler {
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> | null = null;
  let stopped = false;

  const tick = (): Promise<void> => {
    if (current) return current;
    current = round()
      .catch(onError)
      .finally(() => {
        current = null;
      });
    return current;
  };

  return {
    start() {
      if (timer || stopped) return;
      timer = setInterval(() => void tick(), intervalMs);
      timer.unref();
    },
    tick: () => (stopped ? Promise.resolve() : tick()),
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await current;
    },
  };
}

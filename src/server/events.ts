/**
 * In-process events between areas, so one area reacts to another's without importing it: the
 * integrations runner says a sync finished; automations (AfterSync triggers) and search (indexing)
 * listen. Listeners run after the emitter's work is committed; a listener's failure is logged and
 * never reaches the emitter.
 */
import type { RunStatus } from '../shared/integrations';

export interface AppEvents {
  /** A sync run ended (its rows committed). `recordsProcessed`: rows the run read across its datasets. */
  syncFinished: {
    accountId: string;
    integrationId: string;
    runId: string;
    status: RunStatus;
    recordsProcessed: number;
    /** Datasets whose new rows landed in this run. */
    datasets: { name: string; recordsProcessed: number }[];
  };
}

export type AppEventName = keyof AppEvents;
type Listener<E extends AppEventName> = (event: AppEvents[E]) => void | Promise<void>;

export interface AppEventBus {
  on<E extends AppEventName>(name: E, listener: Listener<E>): () => void;
  /** Calls every listener; resolves when they have all settled (errors logged). */
  emit<E extends AppEventName>(name: E, event: AppEvents[E]): Promise<void>;
}

export function createEventBus(onError: (error: unknown, name: AppEventName) => void): AppEventBus {
  const listeners = new Map<AppEventName, Set<Listener<never>>>();
  return {
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      set.add(listener as Listener<never>);
      listeners.set(name, set);
      return () => set.delete(listener as Listener<never>);
    },
    async emit(name, event) {
      const set = listeners.get(name);
      if (!set) return;
      await Promise.all(
        [...set].map(async (listener) => {
          try {
            await (listener as Listener<typeof name>)(event);
          } catch (error) {
            onError(error, name);
          }
        }),
      );
    },
  };
}

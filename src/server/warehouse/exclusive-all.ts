import type { WarehouseExecutor } from './types';

/**
 * `work` inside `executor.exclusive` of every name, taken in sorted order so two callers needing
 * overlapping sets never wait on each other in a circle.
 */
export function exclusiveAll<T>(
  executor: WarehouseExecutor,
  names: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const sorted = [...new Set(names)].sort();
  const enter = (index: number): Promise<T> =>
    index === sorted.length ? work() : executor.exclusive(sorted[index] as string, () => enter(index + 1));
  return enter(0);
}

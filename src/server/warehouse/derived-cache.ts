/**
 * Things derived from an account's relations and their metadata (a published model version's
 * compiled relation, a static table's columns), kept between requests under the version of every
 * relation they were derived from, and dropped as soon as one of those moves on: every writer of a
 * relation goes through `exclusive('table:...')`, which moves its version when the write settles,
 * and writes change a relation's metadata inside that lock. A value derived while any write of the
 * account settled is not kept, so nothing read halfway through a write is ever served.
 */
import type { WarehouseExecutor } from './types';

/** Values kept across all accounts; the least recently used go first. */
const MAX_ENTRIES = 1_000;

interface Entry {
  value: unknown;
  /** Each relation (`schema.name`) it was derived from, with that relation's version then. */
  stamp: readonly (readonly [string, number])[];
}

const entries = new Map<string, Entry>();
const keyOf = (executor: WarehouseExecutor, key: string) => `${executor.accountId}\0${key}`;

/** The value kept under `key`, if every relation it was derived from is still at the version it saw. */
export function keptDerived<T>(executor: WarehouseExecutor, key: string): T | undefined {
  const full = keyOf(executor, key);
  const entry = entries.get(full);
  if (!entry) return undefined;
  entries.delete(full);
  if (entry.stamp.some(([relation, version]) => executor.relationVersion(relation) !== version)) return undefined;
  entries.set(full, entry);
  return entry.value as T;
}

/**
 * Keeps `value`, derived from `relations`, under `key`, unless a write of the account settled since
 * `writesBefore` (executor.writesSettled(), read before anything was read).
 */
export function keepDerived(
  executor: WarehouseExecutor,
  key: string,
  writesBefore: number,
  relations: Iterable<string>,
  value: unknown,
): void {
  if (executor.writesSettled() !== writesBefore) return;
  const stamp = [...new Set(relations)].map((relation) => [relation, executor.relationVersion(relation)] as const);
  entries.set(keyOf(executor, key), { value, stamp });
  for (const oldest of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(oldest);
  }
}

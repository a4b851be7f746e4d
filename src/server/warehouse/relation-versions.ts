/**
 * A version per relation of each account, moved on whenever a writer of that relation finishes: the
 * executor's `exclusive('table:<schema>.<name>', work)` bumps `<schema>.<name>` when `work` settles
 * (succeeded or failed alike, as a failed write may still have changed something). Anything derived
 * from a relation's rows (ordered copies) is stored under the version read before it was made, so a
 * copy that raced a write can never be served after that write.
 *
 * Versions live in this process only, which is enough: the derived data lives no longer.
 */
export interface RelationVersions {
  /** 0 until the relation's first write in this process. */
  get(accountId: string, relation: string): number;
  bump(accountId: string, relation: string): void;
  /** Bumps of any relation of the account so far: unchanged across a read means no write settled meanwhile. */
  writes(accountId: string): number;
  /** Called after each bump, e.g. to drop what the old version derived. */
  onBump(listener: (accountId: string, relation: string) => void): void;
}

/** The relation an `exclusive` lock name guards, or null for other locks (e.g. `schema:static`). */
export function lockedRelation(lockName: string): string | null {
  return lockName.startsWith('table:') ? lockName.slice('table:'.length) : null;
}

export function createRelationVersions(): RelationVersions {
  const versions = new Map<string, number>();
  const writes = new Map<string, number>();
  const listeners: ((accountId: string, relation: string) => void)[] = [];
  const key = (accountId: string, relation: string) => `${accountId}\0${relation}`;
  return {
    get: (accountId, relation) => versions.get(key(accountId, relation)) ?? 0,
    bump(accountId, relation) {
      const k = key(accountId, relation);
      versions.set(k, (versions.get(k) ?? 0) + 1);
      writes.set(accountId, (writes.get(accountId) ?? 0) + 1);
      for (const listener of listeners) listener(accountId, relation);
    },
    writes: (accountId) => writes.get(accountId) ?? 0,
    onBump(listener) {
      listeners.push(listener);
    },
  };
}

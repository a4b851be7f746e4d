import type { AccountInstances, Lease } from './account-instances';
import { checkpointWhenFree, type CheckpointLock } from './checkpoint-lock';
import type { Gate } from './gate';
import type { KeyedLock } from './keyed-lock';
import type { OrderedCopyStores } from './ordered-copy-store';
import type { RecentAnswers } from './recent-answers';
import { lockedRelation, type RelationVersions } from './relation-versions';
import { createSession } from './session';
import type { WarehouseConnection, WarehouseExecutor, WarehouseSession } from './types';

/** `work` inside BEGIN ... COMMIT on the leased connection of `session`; any error rolls everything back. */
async function inTransaction<T>(
  session: WarehouseSession,
  lease: Lease,
  work: (session: WarehouseSession) => Promise<T>,
): Promise<T> {
  await session.run('BEGIN TRANSACTION');
  try {
    const result = await work(session);
    await session.run('COMMIT');
    return result;
  } catch (error) {
    // A failed COMMIT has already rolled back; any other failure needs the ROLLBACK. If that
    // fails too, the connection's state is unknown, so it is not reused.
    await session.run('ROLLBACK').catch(() => lease.release(true));
    throw error;
  }
}

/** What every account's executor shares: the instances, the gate, the locks and the versions of one warehouse. */
export interface ExecutorParts {
  instances: AccountInstances;
  gate: Gate;
  locks: KeyedLock;
  versions: RelationVersions;
  copies: OrderedCopyStores;
  answers: RecentAnswers;
  /** Keeps each account's checkpoints apart from its open write transactions (checkpoint-lock.ts). */
  checkpoints: CheckpointLock;
}

/**
 * One leased connection as a session with transactions (executor.session, and the first-open hook).
 * `guard` wraps each transaction: the account's checkpoint lock, except in the first-open hook, which
 * runs before anything else can use the instance (and may run inside a checkpoint's lease).
 */
export function connectionOf(
  lease: Lease,
  gate: Gate,
  guard: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
): WarehouseConnection {
  const session = createSession(lease.connection, gate);
  return {
    ...session,
    transaction: (work) => guard(() => inTransaction(session, lease, work)),
    progress: () => lease.progress(),
    interrupt: () => lease.connection.interrupt(),
  };
}

/** Where an account's executor may put files for DuckDB to read or write. */
export interface ExecutorFolders {
  tempDir: string;
  scratchDir: string;
}

/** An account's executor: every call leases its own connection, and returns it when done. */
export function createExecutor(parts: ExecutorParts, accountId: string, folders: ExecutorFolders): WarehouseExecutor {
  const { instances, gate, locks, versions, checkpoints } = parts;
  const withSession = async <T>(
    work: (session: WarehouseSession, lease: Lease) => Promise<T>,
    options?: { watched?: boolean },
  ): Promise<T> => {
    const lease = await instances.lease(accountId, options);
    try {
      return await work(createSession(lease.connection, gate), lease);
    } finally {
      lease.release();
    }
  };

  return {
    accountId,
    ...folders,
    all: (query) => withSession((session) => session.all(query)),
    query: (query) => withSession((session) => session.query(query)),
    run: (sql, parameters) => withSession((session) => session.run(sql, parameters)),

    async *stream(query) {
      const lease = await instances.lease(accountId);
      try {
        yield* createSession(lease.connection, gate).stream(query);
      } finally {
        lease.release();
      }
    },

    session: (work, options) =>
      withSession(
        (_session, lease) => work(connectionOf(lease, gate, (inner) => checkpoints.transaction(accountId, inner))),
        options,
      ),
    exclusive: (name, work) =>
      locks.run(`${accountId}\0${name}`, async () => {
        const relation = lockedRelation(name);
        try {
          return await work();
        } finally {
          // Inside the lock, so the next writer (and every read after this write) sees the new version.
          if (relation !== null) versions.bump(accountId, relation);
        }
      }),
    relationVersion: (relation) => versions.get(accountId, relation),
    writesSettled: () => versions.writes(accountId),
    orderedCopies: parts.copies.forAccount(accountId),
    recentAnswers: parts.answers,

    transaction: (work) =>
      checkpoints.transaction(accountId, () => withSession((session, lease) => inTransaction(session, lease, work))),
    // DuckDB checkpoints alongside running readers, not alongside other writers; an empty log cannot fail to replay.
    checkpoint: () =>
      checkpoints.checkpoint(accountId, () =>
        checkpointWhenFree(async () => void (await withSession((session) => session.run('CHECKPOINT')))),
      ),
  };
}

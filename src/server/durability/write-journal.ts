/**
 * Writes that change a warehouse relation and its metadata together (a CSV import replacing a
 * table and its columns, a sync's swap and the dataset's state, a publish, a delete) survive a kill
 * at any point and leave the two stores agreeing:
 *
 * 1. a row in `warehouse_writes` (SQLite) says a write of this kind is under way in the account;
 * 2. the warehouse transaction changes the data and, in the same transaction, stores a marker
 *    holding the metadata to record (`markWrite`): the data and its marker commit together or not;
 * 3. CHECKPOINT, so the change is in the warehouse file and never depends on replaying its log;
 * 4. one SQLite transaction records the metadata and removes the row.
 *
 * The first time a later process opens the account's warehouse, each row left by an earlier process
 * is settled: with its marker, the metadata is recorded now (the data changed); without, the row is
 * dropped (the data did not change). Callers hold the relation's `exclusive` lock around `write`, so
 * two writes of one relation record their metadata in the order their data changed.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../db/database';
import { newId } from '../db/ids';
import { clearMarkers, markWrite, readMarkers } from '../warehouse/write-markers';
import type { Warehouse } from '../warehouse/warehouse';
import type { WarehouseConnection, WarehouseSession } from '../warehouse/types';
import { crashPoint } from './crash-points';

export interface WriteKind<P> {
  /** Checks a marker's payload read back after a crash. */
  payload: z.ZodType<P>;
  /** Records the metadata of a write whose data changed, inside the given SQLite transaction. */
  apply(db: Db, payload: P, how: { recovered: boolean }): Promise<void>;
  /** Says, e.g. in the run's log, that a write was interrupted before its data changed. */
  forgotten?(db: Db, runId: string, why: string): Promise<void>;
}

/** Stores the write's marker; call it once, inside the transaction that changes the data. */
export type MarkWrite = (tx: WarehouseSession, payload: unknown) => Promise<void>;

export interface WriteJournal {
  register<P>(kind: string, definition: WriteKind<P>): void;
  /**
   * Runs `work`, which changes the warehouse in one transaction and calls `mark` inside it; then
   * makes the change durable and records its metadata. `work` failing changes neither store.
   */
  write<R>(
    accountId: string,
    kind: string,
    work: (mark: MarkWrite) => Promise<R>,
    options?: { runId?: string },
  ): Promise<R>;
  /** Settles the rows earlier processes left for the account (the warehouse's first-open hook). */
  recoverAccount(accountId: string, connection: WarehouseConnection): Promise<void>;
  /** Accounts with writes an earlier process left unsettled. */
  unsettledAccounts(): Promise<string[]>;
  /** The account's log could not be replayed: say so where writes are forgotten. */
  logSetAside(accountId: string): void;
}

export function createWriteJournal(db: Db, warehouse: Warehouse, clock: () => Date): WriteJournal {
  // Rows made by this process are its own writes under way; only earlier processes' rows are settled.
  const bootId = randomUUID();
  const kinds = new Map<string, WriteKind<unknown>>();
  const setAside = new Set<string>();

  const kindOf = (kind: string): WriteKind<unknown> => {
    const found = kinds.get(kind);
    if (!found) throw new Error(`No write kind '${kind}' is registered`);
    return found;
  };

  const record = async (id: string, kind: WriteKind<unknown>, payload: unknown, recovered: boolean) => {
    await db.transaction().execute(async (trx) => {
      await kind.apply(trx, payload, { recovered });
      await trx.deleteFrom('warehouse_writes').where('id', '=', id).execute();
    });
  };

  return {
    register(kind, definition) {
      kinds.set(kind, definition as WriteKind<unknown>);
    },

    async write(accountId, kindName, work, options = {}) {
      const kind = kindOf(kindName);
      const executor = warehouse.forAccount(accountId);
      const id = newId();
      await db
        .insertInto('warehouse_writes')
        .values({
          id,
          account_id: accountId,
          kind: kindName,
          run_id: options.runId ?? null,
          boot_id: bootId,
          created_at: clock().toISOString(),
        })
        .execute();
      let marked: { payload: unknown } | null = null;
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work(async (tx, payload) => {
          if (marked) throw new Error(`A '${kindName}' write was marked twice`);
          const checked = kind.payload.parse(payload);
          await markWrite(tx, { id, kind: kindName, payload: checked });
          marked = { payload: checked };
          crashPoint(`${kindName}:before-commit`);
        });
      } catch (error) {
        await db.deleteFrom('warehouse_writes').where('id', '=', id).execute();
        throw error;
      }
      const done = marked as { payload: unknown } | null;
      if (!done) {
        // Nothing changed (e.g. a write that found no work): nothing to record.
        await db.deleteFrom('warehouse_writes').where('id', '=', id).execute();
        return result;
      }
      crashPoint(`${kindName}:committed`);
      await executor.checkpoint();
      crashPoint(`${kindName}:checkpointed`);
      await record(id, kind, done.payload, false);
      crashPoint(`${kindName}:recorded`);
      // A marker left behind (a failed delete, a kill) is cleared at the next first open.
      await executor.session((session) => clearMarkers(session, [id])).catch(() => undefined);
      return result;
    },

    async recoverAccount(accountId, connection) {
      const rows = await db
        .selectFrom('warehouse_writes')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('boot_id', '!=', bootId)
        .orderBy('created_at')
        .execute();
      const markers = new Map((await readMarkers(connection)).map((m) => [m.id, m]));
      const settled: string[] = [];
      for (const row of rows) {
        const kind = kinds.get(row.kind);
        const marker = markers.get(row.id);
        try {
          if (!kind) throw new Error(`No write kind '${row.kind}' is registered`);
          if (marker) {
            await record(row.id, kind, kind.payload.parse(marker.payload), true);
            settled.push(row.id);
          } else {
            await db.transaction().execute(async (trx) => {
              if (row.run_id && kind.forgotten)
                await kind.forgotten(trx, row.run_id, forgottenBecause(setAside.has(accountId)));
              await trx.deleteFrom('warehouse_writes').where('id', '=', row.id).execute();
            });
          }
        } catch (error) {
          // Left for the next start, with its marker; the account still opens.
          console.error(
            `Could not settle the interrupted '${row.kind}' write ${row.id} of account ${accountId}`,
            error,
          );
        }
      }
      // Markers without a row were recorded already; only this process's own writes are still going.
      const unsettled = new Set(rows.map((r) => r.id).filter((id) => !settled.includes(id)));
      await clearMarkers(
        connection,
        [...markers.keys()].filter((id) => !unsettled.has(id)),
      );
      setAside.delete(accountId);
    },

    async unsettledAccounts() {
      const rows = await db
        .selectFrom('warehouse_writes')
        .select('account_id')
        .distinct()
        .where('boot_id', '!=', bootId)
        .execute();
      return rows.map((r) => r.account_id);
    },

    logSetAside(accountId) {
      setAside.add(accountId);
    },
  };
}

function forgottenBecause(logSetAside: boolean): string {
  return logSetAside
    ? "The server stopped, and the warehouse's log could not be read back afterwards (it was kept aside for the operator); these rows were not saved."
    : 'The server stopped before these rows were saved.';
}

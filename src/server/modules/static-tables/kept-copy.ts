/**
 * The copy of a static table's previous rows and columns that a Replace or Append import, or a
 * column's type change, keeps so the editor's Undo can bring it back: `static.t_<id>__kept`, named
 * in the metadata store by a token (static_tables.kept_*). The next change to the table forgets it
 * (its write records `kept: null`) and drops it; a crash between the two leaves a copy the metadata
 * no longer names, which the start-up sweep drops (durable-writes.ts).
 *
 * Every step here is DROPs and RENAMEs only, as swap-table.ts requires: no table renamed here has
 * its rows changed in the same transaction (a staged table's rows are committed before).
 */
import { randomUUID } from 'node:crypto';
import type { WarehouseExecutor, WarehouseSession } from '../../warehouse/types';
import { STATIC_SCHEMA, q, warehouseTableName } from './physical';

export const keptTableName = (tableId: string) => `${warehouseTableName(tableId)}__kept`;

export const newKeptToken = () => randomUUID();

const at = (name: string) => `${q(STATIC_SCHEMA)}.${q(name)}`;

/**
 * Makes `staged` the table and keeps the table it replaces as the kept copy (dropping an older
 * one), in one transaction with `alongside` (the write's marker). If it fails, `staged` is dropped
 * and the table and its kept copy are as they were.
 */
export async function swapKeeping<T>(
  executor: WarehouseExecutor,
  tableId: string,
  staged: string,
  alongside: (tx: WarehouseSession) => Promise<T>,
): Promise<T> {
  const table = warehouseTableName(tableId);
  const kept = keptTableName(tableId);
  try {
    return await executor.transaction(async (tx) => {
      await tx.run(`DROP TABLE IF EXISTS ${at(kept)}`);
      await tx.run(`ALTER TABLE ${at(table)} RENAME TO ${q(kept)}`);
      await tx.run(`ALTER TABLE ${at(staged)} RENAME TO ${q(table)}`);
      return alongside(tx);
    });
  } catch (error) {
    await executor.run(`DROP TABLE IF EXISTS ${at(staged)}`).catch(() => undefined);
    throw error;
  }
}

/**
 * In the transaction that writes the table anew (a Replace import), before its new rows are
 * written: the table becomes the kept copy (dropping an older one). Its rows do not change in that
 * transaction, and the new table's are written under the table's name, so nothing is copied twice
 * and no table whose rows changed is renamed (swap-table.ts).
 */
export async function keepAside(tx: WarehouseSession, tableId: string): Promise<void> {
  await tx.run(`DROP TABLE IF EXISTS ${at(keptTableName(tableId))}`);
  await tx.run(`ALTER TABLE ${at(warehouseTableName(tableId))} RENAME TO ${q(keptTableName(tableId))}`);
}

/** Exchanges the table and its kept copy (Undo, and Redo after it), in one transaction with `alongside`. */
export async function exchangeKept<T>(
  executor: WarehouseExecutor,
  tableId: string,
  alongside: (tx: WarehouseSession) => Promise<T>,
): Promise<T> {
  const table = warehouseTableName(tableId);
  const kept = keptTableName(tableId);
  const aside = `${table}__aside`;
  return executor.transaction(async (tx) => {
    await tx.run(`ALTER TABLE ${at(table)} RENAME TO ${q(aside)}`);
    await tx.run(`ALTER TABLE ${at(kept)} RENAME TO ${q(table)}`);
    await tx.run(`ALTER TABLE ${at(aside)} RENAME TO ${q(kept)}`);
    return alongside(tx);
  });
}

/** Whether the kept copy is in the warehouse. */
export async function keptExists(executor: WarehouseSession, tableId: string): Promise<boolean> {
  const rows = await executor.all({
    sql:
      'SELECT 1 AS found FROM duckdb_tables() WHERE database_name = current_database() ' +
      'AND schema_name = $1 AND table_name = $2',
    parameters: [STATIC_SCHEMA, keptTableName(tableId)],
  });
  return rows.length > 0;
}

/** Drops the kept copy after a write that forgot it committed; a failure is left to the start-up sweep. */
export async function dropKept(executor: WarehouseExecutor, tableId: string): Promise<void> {
  await executor.run(`DROP TABLE IF EXISTS ${at(keptTableName(tableId))}`).catch(() => undefined);
}

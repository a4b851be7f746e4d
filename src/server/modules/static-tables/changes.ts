import type { SqlValue } from '../../../engine';
import { STATIC_TABLE_LIMITS, TOO_MANY_COLUMNS, type TableChange } from '../../../shared/static-tables';
import type { AccountContext, Deps } from '../../context';
import type { WarehouseSession } from '../../warehouse/types';
import { badInput } from '../../errors';
import { ROW_ID, STATIC_SCHEMA, isValidColumnKey, newColumnKey, q, qualified, warehouseTableName } from './physical';
import { findTable, listColumns } from './repo';
import { dropKept } from './kept-copy';
import { TABLE_SAVED, type TableSaved } from './durable-writes';
import type { MarkWrite } from '../../durability/write-journal';
import { swapTable } from '../../warehouse/swap-table';
import { insertRows, moveRow, updateCells } from './rows';
import { warehouseError } from './warehouse-errors';
import { crashPoint } from '../../durability/crash-points';
import { misfit, typedColumns, UNZONED_TIME_TYPES, zonedTimesInUtc } from './cell-fit';

/** The caller's key when it is valid and free (400 otherwise), or a fresh one. */
function keyForNewColumn(requested: string | undefined, taken: ReadonlySet<string>): string {
  if (requested === undefined) return newColumnKey(taken);
  if (!isValidColumnKey(requested)) {
    throw badInput(
      `Column key "${requested}" is not valid: use up to 63 lowercase letters, digits or _, starting with a letter.`,
    );
  }
  if (taken.has(requested)) throw badInput(`Column key "${requested}" is already used in this table.`);
  return requested;
}

/**
 * Applies the editor's changes in order, in one warehouse transaction that also records the table's
 * new columns and row count for the metadata store (durable-writes.ts): a failed change changes
 * nothing. The caller holds the table's exclusive lock.
 */
export async function applyChanges(deps: Deps, ctx: AccountContext, id: string, changes: TableChange[]) {
  const warehouse = deps.warehouse.forAccount(ctx.accountId);
  let columns = await listColumns(deps.db, id);
  // Any change forgets the copy an import or a type change kept for Undo (kept-copy.ts).
  const hadKept = Boolean((await findTable(deps.db, ctx.accountId, id))?.kept_token);
  // DuckDB cannot commit a transaction that both alters a table and updates or deletes its rows, so
  // such a batch works on a copy, committed first and then swapped in (swap-table.ts).
  const altersColumns = changes.some((c) => c.kind === 'addColumn' || c.kind === 'deleteColumn');
  const editsRows = changes.some(
    (c) => c.kind === 'cells' || c.kind === 'deleteRows' || c.kind === 'moveRow' || c.kind === 'appendRows',
  );
  const onCopy = altersColumns && editsRows;
  const copyName = `${warehouseTableName(id)}__edit`;
  const table = onCopy ? `${q(STATIC_SCHEMA)}.${q(copyName)}` : qualified(id);
  const addedRowIds: number[] = [];
  /** The next free row id: rows are added after the last one. */
  const nextRowId = async (session: WarehouseSession) => {
    const [last] = await session.all({
      sql: `SELECT coalesce(max(${q(ROW_ID)}), 0)::BIGINT AS n FROM ${table}`,
      parameters: [],
    });
    return Number(last?.n ?? 0) + 1;
  };
  const known = (key: string) => {
    if (!columns.some((c) => c.columnKey === key)) throw badInput(`Unknown column "${key}".`);
  };

  const edit = async (session: WarehouseSession) => {
    const typed = changes.some((c) => c.kind === 'cells' || c.kind === 'appendRows')
      ? await typedColumns(session, id)
      : new Map<string, string>();
    const checkValue = (columnKey: string, value: SqlValue) => {
      const type = typed.get(columnKey);
      const why = type === undefined ? null : misfit(type, value);
      if (why !== null) throw badInput(`A value does not fit its column: ${why}.`);
    };
    /** A date and time with an offset, for a column of times without one: the same instant in UTC. */
    const inUtc = async (cells: { columnKey: string; value: SqlValue }[]) => {
      const texts = cells.flatMap(({ columnKey, value }) =>
        UNZONED_TIME_TYPES.has(typed.get(columnKey) ?? '') && typeof value === 'string' ? [value] : [],
      );
      const utc = await zonedTimesInUtc(session, texts);
      return <V extends SqlValue>(columnKey: string, value: V): V | string =>
        UNZONED_TIME_TYPES.has(typed.get(columnKey) ?? '') && typeof value === 'string'
          ? (utc.get(value) ?? value)
          : value;
    };
    for (const change of changes) {
      switch (change.kind) {
        case 'cells':
          for (const cell of change.edits) {
            known(cell.columnKey);
            checkValue(cell.columnKey, cell.value);
          }
          {
            const stored = await inUtc(change.edits);
            await updateCells(
              session,
              table,
              change.edits.map((cell) => ({ ...cell, value: stored(cell.columnKey, cell.value) })),
            );
          }
          break;
        case 'addRows': {
          const first = await nextRowId(session);
          await session.run(`INSERT INTO ${table} (${q(ROW_ID)}) SELECT $1::BIGINT + i FROM range(0, $2) t(i)`, [
            first,
            change.count,
          ]);
          for (let i = 0; i < change.count; i++) addedRowIds.push(first + i);
          break;
        }
        case 'appendRows': {
          // Keyed by column key only: a display name is no key here, so a typo is refused, not dropped.
          for (const row of change.rows) {
            for (const [key, value] of Object.entries(row)) {
              known(key);
              checkValue(key, value);
            }
          }
          const first = await nextRowId(session);
          const stored = await inUtc(
            change.rows.flatMap((row) => Object.entries(row).map(([columnKey, value]) => ({ columnKey, value }))),
          );
          const byKey = change.rows.map((row) =>
            columns.map((c) => (Object.hasOwn(row, c.columnKey) ? stored(c.columnKey, row[c.columnKey]!) : null)),
          );
          await insertRows(session, table, columns, byKey, first);
          for (let i = 0; i < change.rows.length; i++) addedRowIds.push(first + i);
          break;
        }
        case 'deleteRows':
          await session.run(`DELETE FROM ${table} WHERE ${q(ROW_ID)} IN (SELECT unnest($1::BIGINT[]))`, [
            JSON.stringify(change.rowIds),
          ]);
          break;
        case 'moveRow':
          await moveRow(session, table, change.rowId, change.toRowId);
          break;
        case 'addColumn': {
          if (columns.length >= STATIC_TABLE_LIMITS.maxColumns) {
            throw badInput(TOO_MANY_COLUMNS);
          }
          const columnKey = keyForNewColumn(change.column.columnKey, new Set(columns.map((c) => c.columnKey)));
          await session.run(`ALTER TABLE ${table} ADD COLUMN ${q(columnKey)} VARCHAR`);
          columns = [
            ...columns,
            {
              columnKey,
              displayName: change.column.displayName,
              description: change.column.description ?? null,
              order: columns.length,
              type: 'Text',
            },
          ];
          break;
        }
        case 'deleteColumn':
          known(change.columnKey);
          await session.run(`ALTER TABLE ${table} DROP COLUMN ${q(change.columnKey)}`);
          columns = columns.filter((c) => c.columnKey !== change.columnKey);
          break;
        case 'moveColumn': {
          known(change.columnKey);
          const moving = columns.find((c) => c.columnKey === change.columnKey)!;
          const rest = columns.filter((c) => c.columnKey !== change.columnKey);
          const at = Math.min(change.toIndex, rest.length);
          columns = [...rest.slice(0, at), moving, ...rest.slice(at)];
          break;
        }
        case 'updateColumn':
          known(change.columnKey);
          columns = columns.map((c) =>
            c.columnKey !== change.columnKey
              ? c
              : {
                  ...c,
                  displayName: change.displayName ?? c.displayName,
                  description: change.description === undefined ? c.description : change.description,
                  format: change.format === undefined ? c.format : change.format,
                },
          );
          break;
      }
    }
  };

  /** Counts the rows and records the outcome, inside the transaction that makes it the table's. */
  let rowCount = 0;
  const record = async (session: WarehouseSession, mark: MarkWrite) => {
    const [counted] = await session.all({ sql: `SELECT count(*)::INTEGER AS n FROM ${qualified(id)}`, parameters: [] });
    rowCount = Number(counted?.n ?? 0);
    columns = columns.map((c, i) => ({ ...c, order: i }));
    const saved: TableSaved = {
      tableId: id,
      accountId: ctx.accountId,
      name: null,
      columns,
      rowCount,
      at: deps.clock().toISOString(),
      ...(hadKept ? { kept: null } : {}),
    };
    await mark(session, saved);
  };

  try {
    if (onCopy) {
      await warehouse
        .transaction(async (session) => {
          await session.run(`DROP TABLE IF EXISTS ${table}`);
          await session.run(`CREATE TABLE ${table} AS SELECT * FROM ${qualified(id)}`);
          await edit(session);
        })
        .catch(async (error: unknown) => {
          await warehouse.run(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
          throw error;
        });
      crashPoint('static-table:edit-copied');
      await deps.writes.write(ctx.accountId, TABLE_SAVED, (mark) =>
        swapTable(warehouse, STATIC_SCHEMA, copyName, warehouseTableName(id), (tx) => record(tx, mark)),
      );
    } else {
      await deps.writes.write(ctx.accountId, TABLE_SAVED, (mark) =>
        warehouse.transaction(async (session) => {
          await edit(session);
          await record(session, mark);
        }),
      );
    }
  } catch (error) {
    throw warehouseError(error);
  }
  if (hadKept) await dropKept(warehouse, id);
  return { columns, rowCount, addedRowIds };
}

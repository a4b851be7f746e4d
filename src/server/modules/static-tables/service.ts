import fs from 'node:fs';
import {
  NEW_TABLE,
  type CreateStaticTableRequest,
  type CsvImportAnswer,
  type RenameStaticTableRequest,
  type ReplaceDataRequest,
  type StaticQueryRequest,
  type StaticTableChangesRequest,
  type StaticTableListRequest,
  type StaticTableSummary,
} from '../../../shared/static-tables';
import type { Column, Paged } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { newId } from '../../db/ids';
import { conflict, notFound } from '../../errors';
import type { StaticColumnType } from '../../../shared/static-column-types';
import type { ImportPreviewInput, ImportProgress } from '../../../shared/static-table-import';
import { matchHeaders } from './import-columns';
import { importAppending, importAsNewTable, importReplacing } from './import-modes';
import { previewImport } from './import-preview';
import { createImportProgressBoard, type ReportImport } from './import-progress';
import { changeColumnType, previewTypeChange } from './column-type-change';
import { dropKept, exchangeKept, keptExists, keptTableName } from './kept-copy';
import { requireWriter } from '../accounts/access';
import { compileTableQuery, staticRelation, withSqlTypes } from '../tables/relations';
import { applyChanges } from './changes';
import { listStaticTables } from './list';
import { STATIC_SCHEMA, isValidColumnKey, newColumnKey, q, qualified, warehouseTableName } from './physical';
import { findTable, keptOf, listColumns, setKept } from './repo';
import { TABLE_DELETED, TABLE_SAVED, registerStaticTableWrites, type TableSaved } from './durable-writes';
import type { MarkWrite } from '../../durability/write-journal';
import { swapTable } from '../../warehouse/swap-table';
import { createTableSql, insertRows } from './rows';
import { warehouseError } from './warehouse-errors';

const NOT_FOUND = 'Table not found.';
const NOTHING_KEPT = 'There is nothing to undo: the table has changed since the import or type change.';

/** A new table's name from an uploaded file's name: without its extension, or 'Imported table'. */
export function tableNameOfFile(fileName: string | undefined): string {
  const base = (fileName ?? '').replace(/\.[^.]*$/, '').trim();
  return base.slice(0, 200) || 'Imported table';
}

type NewColumn = { columnKey?: string; displayName: string; description?: string | null };

/**
 * Columns with fresh keys for new tables; keys given by the caller are kept when unique. Fresh keys
 * avoid `reserved` (a table's earlier keys), so a model reading a column that is gone never reads
 * a new one in its place.
 */
function keyColumns(input: NewColumn[], reserved: ReadonlySet<string> = new Set()): Column[] {
  const taken = new Set<string>();
  return input.map((c, i) => {
    const key =
      c.columnKey && isValidColumnKey(c.columnKey) && !taken.has(c.columnKey)
        ? c.columnKey
        : newColumnKey(new Set([...taken, ...reserved]));
    taken.add(key);
    return {
      columnKey: key,
      displayName: c.displayName,
      description: c.description ?? null,
      order: i,
      type: 'Text' as const,
    };
  });
}

/**
 * Replacing a table's data: a column given without a key takes the key of the earlier column of the
 * same name (matched as a CSV import matches headers, import-columns.ts) unless the caller named
 * that key for another column, so models reading it keep working.
 */
function withEarlierKeys(input: NewColumn[], existing: Column[]): NewColumn[] {
  const claimed = new Set(input.flatMap((c) => (c.columnKey ? [c.columnKey] : [])));
  const free = existing.filter((c) => !claimed.has(c.columnKey));
  const unkeyed = input.filter((c) => !c.columnKey);
  const matched = matchHeaders(
    free,
    unkeyed.map((c) => c.displayName),
  );
  return input.map((c) => {
    const index = unkeyed.indexOf(c);
    const earlier = index >= 0 ? matched[index] : null;
    return earlier ? { ...c, columnKey: earlier.columnKey } : c;
  });
}

export function createStaticTablesService(deps: Deps) {
  registerStaticTableWrites(deps.writes);
  const { db, clock } = deps;
  const imports = createImportProgressBoard();

  /** `work` with its progress followed under the client's token (import-progress.ts). */
  async function followed<T>(
    ctx: AccountContext,
    token: string | undefined,
    work: (report: ReportImport) => Promise<T>,
  ): Promise<T> {
    const { report, end } = imports.follow({ userId: ctx.user.id, accountId: ctx.accountId }, token);
    try {
      const result = await work(report);
      report('Done');
      return result;
    } catch (error) {
      end();
      throw error;
    }
  }

  async function mustFind(ctx: AccountContext, id: string) {
    const table = await findTable(db, ctx.accountId, id);
    if (!table) throw notFound(NOT_FOUND);
    return table;
  }

  /** Writes to one table one at a time: DuckDB refuses concurrent writers of a table. */
  function exclusive<T>(ctx: AccountContext, id: string, work: () => Promise<T>): Promise<T> {
    return deps.warehouse.forAccount(ctx.accountId).exclusive(`table:static.${warehouseTableName(id)}`, work);
  }

  /** The table's rows and its metadata change together (see durable-writes.ts), or neither does. */
  function saveDurably(ctx: AccountContext, work: (mark: MarkWrite) => Promise<void>): Promise<void> {
    return deps.writes.write(ctx.accountId, TABLE_SAVED, work).catch((error: unknown) => {
      throw warehouseError(error);
    });
  }

  const saved = (ctx: AccountContext, id: string, columns: Column[], rowCount: number, name: string | null = null) =>
    ({
      tableId: id,
      accountId: ctx.accountId,
      name,
      columns,
      rowCount,
      at: clock().toISOString(),
    }) satisfies TableSaved;

  async function create(ctx: AccountContext, name: string, columns: Column[], rows: Parameters<typeof insertRows>[3]) {
    const id = newId();
    const warehouse = deps.warehouse.forAccount(ctx.accountId);
    await warehouse.exclusive(`schema:${STATIC_SCHEMA}`, () =>
      warehouse.run(`CREATE SCHEMA IF NOT EXISTS ${q(STATIC_SCHEMA)}`),
    );
    await exclusive(ctx, id, () =>
      saveDurably(ctx, (mark) =>
        warehouse.transaction(async (session) => {
          await session.run(createTableSql(qualified(id), columns));
          await insertRows(session, qualified(id), columns, rows, 1);
          await mark(session, saved(ctx, id, columns, rows.length, name));
        }),
      ),
    );
    return { id };
  }

  return {
    async list(ctx: AccountContext, request: StaticTableListRequest): Promise<Paged<StaticTableSummary>> {
      return listStaticTables(db, ctx.accountId, request);
    },

    /** 'Add a table': 'New table' with columns A and B and 10 blank rows. */
    async createBlank(ctx: AccountContext) {
      requireWriter(ctx);
      const columns = keyColumns(NEW_TABLE.columns.map((displayName) => ({ displayName })));
      return create(
        ctx,
        NEW_TABLE.name,
        columns,
        Array.from({ length: NEW_TABLE.rows }, () => []),
      );
    },

    async create(ctx: AccountContext, input: CreateStaticTableRequest) {
      requireWriter(ctx);
      return create(ctx, input.name, keyColumns(input.columns), input.rows);
    },

    /** Name, columns and every row (for scripts; the grid pages through the tables API instead). */
    async get(ctx: AccountContext, id: string, options: { withRows?: boolean } = {}) {
      const table = await mustFind(ctx, id);
      const columns = await listColumns(db, id);
      const base = {
        id,
        name: table.name,
        modifiedAt: table.modified_at,
        rowCount: table.row_count,
        columns,
        keptToken: table.kept_token,
      };
      if (!options.withRows) return base;
      const compiled = compileTableQuery(staticRelation(id, columns), {
        page: 1,
        pageSize: Math.max(1, table.row_count),
        filterGroups: [],
        sorting: [],
      });
      const rows = await deps.warehouse.forAccount(ctx.accountId).all(compiled.page);
      return { ...base, rows };
    },

    async rename(ctx: AccountContext, id: string, { name }: RenameStaticTableRequest) {
      await mustFind(ctx, id);
      requireWriter(ctx);
      await db
        .updateTable('static_tables')
        .set({ name, modified_at: clock().toISOString() })
        .where('id', '=', id)
        .execute();
      return { id, name };
    },

    async remove(ctx: AccountContext, id: string) {
      await mustFind(ctx, id);
      requireWriter(ctx);
      const warehouse = deps.warehouse.forAccount(ctx.accountId);
      await exclusive(ctx, id, () =>
        deps.writes.write(ctx.accountId, TABLE_DELETED, (mark) =>
          warehouse.transaction(async (session) => {
            await session.run(`DROP TABLE IF EXISTS ${qualified(id)}`);
            await session.run(`DROP TABLE IF EXISTS ${q(STATIC_SCHEMA)}.${q(keptTableName(id))}`);
            await mark(session, { tableId: id });
          }),
        ),
      );
    },

    /** Replaces columns and rows at once: a failed write leaves the old table as it was. */
    async replaceData(ctx: AccountContext, id: string, input: ReplaceDataRequest) {
      const found = await mustFind(ctx, id);
      requireWriter(ctx);
      const warehouse = deps.warehouse.forAccount(ctx.accountId);
      const next = `${warehouseTableName(id)}__next`;
      await exclusive(ctx, id, async () => {
        const existing = await listColumns(db, id);
        const columns = keyColumns(withEarlierKeys(input.columns, existing), new Set(existing.map((c) => c.columnKey)));
        // The new rows are committed into a copy first; the swap then writes no rows (swap-table.ts).
        try {
          await warehouse.transaction(async (session) => {
            await session.run(`DROP TABLE IF EXISTS ${q(STATIC_SCHEMA)}.${q(next)}`);
            await session.run(createTableSql(`${q(STATIC_SCHEMA)}.${q(next)}`, columns));
            await insertRows(session, `${q(STATIC_SCHEMA)}.${q(next)}`, columns, input.rows, 1);
          });
        } catch (error) {
          throw warehouseError(error);
        }
        await saveDurably(ctx, (mark) =>
          swapTable(warehouse, STATIC_SCHEMA, next, warehouseTableName(id), (tx) =>
            mark(tx, { ...saved(ctx, id, columns, input.rows.length), ...(found.kept_token ? { kept: null } : {}) }),
          ),
        );
        if (found.kept_token) await dropKept(warehouse, id);
      });
      return this.get(ctx, id);
    },

    /** Rows matching the filters (one group, joined by their condition operators). */
    async query(ctx: AccountContext, id: string, { filters }: StaticQueryRequest) {
      const table = await mustFind(ctx, id);
      const columns = await listColumns(db, id);
      const warehouse = deps.warehouse.forAccount(ctx.accountId);
      const filterGroups = filters.length ? [{ filters }] : [];
      // A number filter binds its value in the column's SQL type (BIGINT, DECIMAL, ...), exactly.
      const relation = await withSqlTypes(warehouse, staticRelation(id, columns), filterGroups);
      const compiled = compileTableQuery(relation, {
        page: 1,
        pageSize: Math.max(1, table.row_count),
        filterGroups,
        sorting: [],
      });
      return warehouse.all(compiled.page);
    },

    /**
     * Imports a CSV file into the table: Replace (its rows and columns become the table's; columns
     * whose header matches an earlier column keep its key, import-columns.ts) or Append (rows added
     * below, columns matched by name). The old rows stay on failure, and after success are kept for
     * Undo until the next change (kept-copy.ts). With `progressToken`, how far it has got can be
     * read with importProgress while it runs.
     */
    async importCsv(
      ctx: AccountContext,
      id: string,
      filePath: string,
      mode: 'Replace' | 'Append' = 'Replace',
      progressToken?: string,
    ): Promise<CsvImportAnswer> {
      try {
        await mustFind(ctx, id);
        requireWriter(ctx);
        return await followed(ctx, progressToken, (report) =>
          exclusive(ctx, id, () =>
            mode === 'Append'
              ? importAppending(deps, ctx, id, filePath, report)
              : importReplacing(deps, ctx, id, filePath, report),
          ),
        );
      } finally {
        await fs.promises.rm(filePath, { force: true });
      }
    },

    /** New table: a static table made from a CSV file, named `name`. */
    async importAsNewTable(
      ctx: AccountContext,
      name: string,
      filePath: string,
      progressToken?: string,
    ): Promise<CsvImportAnswer> {
      try {
        requireWriter(ctx);
        const id = newId();
        return await followed(ctx, progressToken, (report) =>
          exclusive(ctx, id, () => importAsNewTable(deps, ctx, id, name, filePath, report)),
        );
      } finally {
        await fs.promises.rm(filePath, { force: true });
      }
    },

    /** How far the caller's import under `token` has got; null when none is known (not started, or long over). */
    importProgress(ctx: AccountContext, token: string): ImportProgress | null {
      return imports.read({ userId: ctx.user.id, accountId: ctx.accountId }, token);
    },

    /** The file's first rows and detected types, and what Append and Replace would do (import-preview.ts). */
    async previewImport(ctx: AccountContext, id: string, input: Omit<ImportPreviewInput, 'id'>) {
      await mustFind(ctx, id);
      // A read_only member cannot import, so a preview's head file is never written for one.
      requireWriter(ctx);
      return previewImport(deps, ctx, id, { text: input.head, truncated: input.truncated });
    },

    /**
     * Undo (or redo) of an import or a type change: the table and the copy it kept change places.
     * Refused (409) once another change forgot the copy, or when `token` names another copy.
     */
    async restoreKept(ctx: AccountContext, id: string, token: string) {
      await mustFind(ctx, id);
      requireWriter(ctx);
      const warehouse = deps.warehouse.forAccount(ctx.accountId);
      return exclusive(ctx, id, async () => {
        const table = await mustFind(ctx, id);
        const kept = keptOf(table);
        if (!kept || kept.token !== token) throw conflict(NOTHING_KEPT);
        if (!(await keptExists(warehouse, id))) {
          await setKept(db, id, null);
          throw conflict(NOTHING_KEPT);
        }
        const current = await listColumns(db, id);
        await saveDurably(ctx, (mark) =>
          exchangeKept(warehouse, id, (tx) =>
            mark(tx, {
              ...saved(ctx, id, kept.columns, kept.rowCount),
              kept: { token, columns: current, rowCount: table.row_count },
            }),
          ),
        );
        return { keptToken: token, rowCount: kept.rowCount };
      });
    },

    /** How many values of the column would not convert to `type`, with a few examples. */
    async previewColumnType(ctx: AccountContext, id: string, columnKey: string, type: StaticColumnType) {
      await mustFind(ctx, id);
      return previewTypeChange(deps, ctx, id, columnKey, type);
    },

    /** Changes the column's type; values that do not convert become empty only with `clearUnconvertible`. */
    async changeColumnType(
      ctx: AccountContext,
      id: string,
      columnKey: string,
      input: { type: StaticColumnType; clearUnconvertible: boolean },
    ) {
      await mustFind(ctx, id);
      requireWriter(ctx);
      return exclusive(ctx, id, () => changeColumnType(deps, ctx, id, columnKey, input.type, input.clearUnconvertible));
    },

    /** The editor's cell edits and row/column changes, in one warehouse transaction. */
    async change(ctx: AccountContext, id: string, { changes }: StaticTableChangesRequest) {
      await mustFind(ctx, id);
      requireWriter(ctx);
      return exclusive(ctx, id, () => applyChanges(deps, ctx, id, changes));
    },
  };
}

export type StaticTablesService = ReturnType<typeof createStaticTablesService>;

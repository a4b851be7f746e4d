import fs from 'node:fs';
import {
  NEW_TABLE,
  STATIC_TABLE_LIMITS,
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
import { notFound } from '../../errors';
import { importCsvToTable } from '../../warehouse/csv-import';
import { importAnswer } from './import-answer';
import { importColumns, matchHeaders, type ImportColumns } from './import-columns';
import { requireWriter } from '../accounts/access';
import { compileTableQuery, staticRelation, withSqlTypes } from '../tables/relations';
import { applyChanges } from './changes';
import { listStaticTables } from './list';
import { STATIC_SCHEMA, ROW_ID, isValidColumnKey, newColumnKey, q, qualified, warehouseTableName } from './physical';
import { findTable, listColumns } from './repo';
import { TABLE_DELETED, TABLE_SAVED, registerStaticTableWrites, type TableSaved } from './durable-writes';
import type { MarkWrite } from '../../durability/write-journal';
import { swapTable } from '../../warehouse/swap-table';
import { createTableSql, insertRows } from './rows';
import { warehouseError } from './warehouse-errors';

const NOT_FOUND = 'Table not found.';

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
      const base = { id, name: table.name, modifiedAt: table.modified_at, rowCount: table.row_count, columns };
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
            await mark(session, { tableId: id });
          }),
        ),
      );
    },

    /** Replaces columns and rows at once: a failed write leaves the old table as it was. */
    async replaceData(ctx: AccountContext, id: string, input: ReplaceDataRequest) {
      await mustFind(ctx, id);
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
            mark(tx, saved(ctx, id, columns, input.rows.length)),
          ),
        );
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
     * Replaces the table with a CSV file's rows and columns (types detected); the old rows stay on
     * failure. Columns whose header matches an earlier column keep its key (import-columns.ts).
     */
    async importCsv(ctx: AccountContext, id: string, filePath: string): Promise<CsvImportAnswer> {
      try {
        await mustFind(ctx, id);
        requireWriter(ctx);
        const warehouse = deps.warehouse.forAccount(ctx.accountId);
        return await exclusive(ctx, id, async () => {
          // Read under the table's lock: no edit can change the columns between here and the swap.
          const existing = await listColumns(db, id);
          const planned: { plan?: ImportColumns } = {};
          const planOf = (): ImportColumns => {
            if (!planned.plan) throw new Error('The import stored columns before planning them');
            return planned.plan;
          };
          let columns: Column[] = [];
          const result = await deps.writes.write(ctx.accountId, TABLE_SAVED, (mark) =>
            importCsvToTable(warehouse, {
              filePath,
              schema: STATIC_SCHEMA,
              table: warehouseTableName(id),
              maxBytes: deps.config.uploadMaxBytes,
              maxColumns: STATIC_TABLE_LIMITS.maxColumns,
              rowIdColumn: ROW_ID,
              storeAs: async (header, session) => {
                planned.plan = await importColumns(session, id, existing, header);
                return planned.plan.stored;
              },
              beforeCommit: async (tx, imported) => {
                const { keys, matched } = planOf();
                columns = imported.columns.map((c, i) => ({
                  columnKey: keys[i] as string,
                  displayName: c.name,
                  description: matched[i]?.description ?? null,
                  order: i,
                  type: c.type,
                }));
                await mark(tx, saved(ctx, id, columns, imported.rowCount));
              },
            }),
          );
          return importAnswer(result, columns, planOf());
        });
      } finally {
        await fs.promises.rm(filePath, { force: true });
      }
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

import type { Readable } from 'node:stream';
import { z } from 'zod';
import { COUNT_COLUMN, type CompiledQuery } from '../../../engine';
import { TABLE_TYPES, pageRequestSchema, type Column, type Paged, type TableType } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { badInput, notFound } from '../../errors';
import { parseInput } from '../../validate';
import { exportTable, type ExportFormat } from '../../warehouse/export-table';
import { listColumns } from '../static-tables/repo';
import { q } from '../static-tables/physical';
import { compileTableQuery, staticRelation, type TableRelation } from './relations';

/** The spec's table summary. */
export interface TableSummary {
  id: string;
  type: TableType;
  groupId: string;
  groupName: string;
  name: string;
  columns: Column[];
  status: string;
}

const typeSchema = z.enum(TABLE_TYPES);
const listSchema = z.object({
  types: z.array(typeSchema).default([...TABLE_TYPES]),
  flatten: z.boolean().default(true),
});
const countRequestSchema = pageRequestSchema.pick({ filterGroups: true });
const formatSchema = z.enum(['csv', 'parquet']);

/**
 * Reads any table of the account (static tables now; integration datasets and model versions
 * join as their areas land) through one paging, counting and download path.
 */
function staticSummary(id: string, name: string, columns: Column[]): TableSummary {
  return { id, type: 'StaticTable', groupId: 'static', groupName: 'Tables', name, columns, status: 'Active' };
}

export function createTablesService(deps: Deps) {
  const { db } = deps;

  async function resolve(
    ctx: AccountContext,
    rawType: unknown,
    id: string,
  ): Promise<{ summary: TableSummary; relation: TableRelation }> {
    const type = parseInput(typeSchema, rawType);
    if (type !== 'StaticTable') throw notFound(`No ${type} tables exist yet.`);
    const table = await db
      .selectFrom('static_tables')
      .select(['id', 'name'])
      .where('id', '=', id)
      .where('account_id', '=', ctx.accountId)
      .executeTakeFirst();
    if (!table) throw notFound('Table not found.');
    const columns = await listColumns(db, id);
    return {
      summary: staticSummary(id, table.name, columns),
      relation: staticRelation(id, columns),
    };
  }

  const warehouse = (ctx: AccountContext) => deps.warehouse.forAccount(ctx.accountId);

  return {
    async list(ctx: AccountContext, raw: unknown): Promise<TableSummary[]> {
      const { types } = parseInput(listSchema, raw);
      if (!types.includes('StaticTable')) return [];
      const tables = await db
        .selectFrom('static_tables')
        .select(['id', 'name'])
        .where('account_id', '=', ctx.accountId)
        .orderBy('name')
        .execute();
      // The rows are already the account's: only their columns remain to read.
      return Promise.all(tables.map(async (t) => staticSummary(t.id, t.name, await listColumns(db, t.id))));
    },

    async get(ctx: AccountContext, type: unknown, id: string): Promise<TableSummary> {
      return (await resolve(ctx, type, id)).summary;
    },

    /**
     * One page for infinite scroll. It never waits for a count: `hasMore` is true when the page came
     * back full, and `count`/`totalPages` are -1 unless `withCount` asks for them (the grid counts
     * with its own call).
     */
    async page(ctx: AccountContext, type: unknown, id: string, raw: unknown): Promise<Paged<Record<string, unknown>>> {
      const request = parseInput(pageRequestSchema.extend({ withCount: z.boolean().default(false) }), raw);
      const { relation } = await resolve(ctx, type, id);
      const compiled = compileTableQuery(relation, request);
      const [data, count] = await Promise.all([
        warehouse(ctx).all(compiled.page),
        request.withCount ? countOf(ctx, compiled.count) : Promise.resolve(-1),
      ]);
      return {
        page: request.page,
        pageSize: request.pageSize,
        count,
        totalPages: count < 0 ? -1 : Math.max(1, Math.ceil(count / request.pageSize)),
        hasMore: count < 0 ? data.length === request.pageSize : request.page * request.pageSize < count,
        data,
      };
    },

    async count(ctx: AccountContext, type: unknown, id: string, raw: unknown): Promise<{ totalCount: number }> {
      const { filterGroups } = parseInput(countRequestSchema, raw ?? {});
      const { relation } = await resolve(ctx, type, id);
      const compiled = compileTableQuery(relation, { page: 1, pageSize: 1, filterGroups, sorting: [] });
      return { totalCount: await countOf(ctx, compiled.count) };
    },

    /** The whole table (display names as headers), streamed from a file DuckDB writes. */
    async download(
      ctx: AccountContext,
      type: unknown,
      id: string,
      rawFormat: unknown,
    ): Promise<{ stream: Readable; fileName: string; format: ExportFormat }> {
      const format = parseInput(formatSchema, rawFormat ?? 'csv');
      const { summary, relation } = await resolve(ctx, type, id);
      if (relation.source.kind !== 'table') throw badInput('This table cannot be downloaded.');
      const columns = summary.columns.map((c) => `${q(c.columnKey)} AS ${q(c.displayName)}`).join(', ') || '*';
      const order = relation.rowKey ? ` ORDER BY ${q(relation.rowKey)}` : '';
      const query: CompiledQuery = {
        sql: `SELECT ${columns} FROM ${q(relation.source.schema)}.${q(relation.source.name)}${order}`,
        parameters: [],
      };
      const stream = await exportTable(warehouse(ctx), query, format);
      const safeName = summary.name.replace(/[^\w .-]+/g, '_').trim() || 'table';
      return { stream, fileName: `${safeName}.${format}`, format };
    },
  };

  async function countOf(ctx: AccountContext, query: CompiledQuery): Promise<number> {
    const [row] = await warehouse(ctx).all(query);
    return Number(row?.[COUNT_COLUMN] ?? 0);
  }
}

export type TablesService = ReturnType<typeof createTablesService>;

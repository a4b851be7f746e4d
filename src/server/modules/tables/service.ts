import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { CompiledQuery } from '../../../engine';
import { TABLE_TYPES, pageRequestSchema, type Column, type Paged, type TableSummary } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { notFound } from '../../errors';
import { parseInput } from '../../validate';
import { exportTable, type ExportFormat } from '../../warehouse/export-table';
import { countVia, pageVia, type CopyableQuery } from '../../warehouse/ordered-copies';
import { listModelVersionTables, resolveModelVersionTable } from '../models/model-tables';
import { listIntegrationDatasetTables, resolveIntegrationDatasetTable } from '../integrations/dataset-tables';
import { listColumns } from '../static-tables/repo';
import { compileTableQuery, staticRelation, type TableRelation } from './relations';
import { toDisplayRows } from './display-values';
import { downloadQuery } from './download-query';
import { namingOverflow } from './overflow';

const typeSchema = z.enum(TABLE_TYPES);
const listSchema = z.object({
  types: z.array(typeSchema).default([...TABLE_TYPES]),
  flatten: z.boolean().default(true),
});
const countRequestSchema = pageRequestSchema.pick({ filterGroups: true });
// Built once: zod compiles a schema on first use, so one made per request would be compiled per request.
const pageSchema = pageRequestSchema.extend({ withCount: z.boolean().default(false) });
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
  ): Promise<{ summary: TableSummary; relation: TableRelation; rowEstimate: number | null }> {
    const type = parseInput(typeSchema, rawType);
    if (type === 'ModelVersion') {
      const { summary, relation } = await resolveModelVersionTable(db, ctx, id);
      return { summary, relation, rowEstimate: null };
    }
    if (type === 'IntegrationDataset') return resolveIntegrationDatasetTable(db, ctx.accountId, id);
    if (type !== 'StaticTable') throw notFound(`No ${type} tables exist yet.`);
    const table = await db
      .selectFrom('static_tables')
      .select(['id', 'name', 'row_count'])
      .where('id', '=', id)
      .where('account_id', '=', ctx.accountId)
      .executeTakeFirst();
    if (!table) throw notFound('Table not found.');
    const columns = await listColumns(db, id);
    return {
      summary: staticSummary(id, table.name, columns),
      relation: staticRelation(id, columns),
      rowEstimate: table.row_count,
    };
  }

  const warehouse = (ctx: AccountContext) => deps.warehouse.forAccount(ctx.accountId);

  return {
    async list(ctx: AccountContext, raw: unknown): Promise<TableSummary[]> {
      const { types } = parseInput(listSchema, raw);
      const datasets = types.includes('IntegrationDataset')
        ? await listIntegrationDatasetTables(db, ctx.accountId)
        : [];
      const models = types.includes('ModelVersion') ? await listModelVersionTables(db, ctx) : [];
      if (!types.includes('StaticTable')) return [...datasets, ...models];
      const tables = await db
        .selectFrom('static_tables')
        .select(['id', 'name'])
        .where('account_id', '=', ctx.accountId)
        .orderBy('name')
        .execute();
      // The rows are already the account's: only their columns remain to read.
      const statics = await Promise.all(
        tables.map(async (t) => staticSummary(t.id, t.name, await listColumns(db, t.id))),
      );
      return [...statics, ...datasets, ...models];
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
      const request = parseInput(pageSchema, raw);
      const { relation, rowEstimate } = await resolve(ctx, type, id);
      const compiled = compileTableQuery(relation, request);
      const copyable: CopyableQuery = { query: compiled.query, rowEstimate };
      const [data, count] = await namingOverflow(warehouse(ctx), relation, () =>
        Promise.all([
          pageVia(warehouse(ctx), copyable, compiled.page).then((result) => result.rows),
          request.withCount ? countOf(ctx, copyable, compiled.count) : Promise.resolve(-1),
        ]),
      );
      return {
        page: request.page,
        pageSize: request.pageSize,
        count,
        totalPages: count < 0 ? -1 : Math.max(1, Math.ceil(count / request.pageSize)),
        hasMore: count < 0 ? data.length === request.pageSize : request.page * request.pageSize < count,
        data: request.forDisplay ? toDisplayRows(data, relation.columns) : [...data],
      };
    },

    async count(ctx: AccountContext, type: unknown, id: string, raw: unknown): Promise<{ totalCount: number }> {
      const { filterGroups } = parseInput(countRequestSchema, raw ?? {});
      const { relation, rowEstimate } = await resolve(ctx, type, id);
      const compiled = compileTableQuery(relation, { page: 1, pageSize: 1, filterGroups, sorting: [] });
      const totalCount = await namingOverflow(warehouse(ctx), relation, () =>
        countOf(ctx, { query: compiled.query, rowEstimate }, compiled.count),
      );
      return { totalCount };
    },

    /** The table (display names as headers) with the grid's filters and sort, streamed from a file DuckDB writes. */
    async download(
      ctx: AccountContext,
      type: unknown,
      id: string,
      rawFormat: unknown,
      rawQuery: unknown = {},
    ): Promise<{ stream: Readable; fileName: string; format: ExportFormat }> {
      const format = parseInput(formatSchema, rawFormat ?? 'csv');
      const { summary, relation } = await resolve(ctx, type, id);
      const query = downloadQuery(relation, rawQuery);
      const stream = await namingOverflow(warehouse(ctx), relation, () => exportTable(warehouse(ctx), query, format));
      const safeName = summary.name.replace(/[^\w .-]+/g, '_').trim() || 'table';
      return { stream, fileName: `${safeName}.${format}`, format };
    },
  };

  /** Large tables' filtered counts may come from an ordered copy (warehouse/ordered-copies.ts). */
  async function countOf(ctx: AccountContext, copyable: CopyableQuery, plain: CompiledQuery): Promise<number> {
    return (await countVia(warehouse(ctx), copyable, plain)).count;
  }
}

export type TablesService = ReturnType<typeof createTablesService>;

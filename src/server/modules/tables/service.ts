import type { Readable } from 'node:stream';
import type { CompiledQuery } from '../../../engine';
import type {
  Column,
  Paged,
  TableCountRequest,
  TableListRequest,
  TablePageRequest,
  TableSummary,
  TableType,
} from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { notFound } from '../../errors';
import { exportTable, type ExportFormat } from '../../warehouse/export-table';
import { countVia, pageVia, type CopyableQuery } from '../../warehouse/ordered-copies';
import { listModelVersionTables, resolveModelVersionTable } from '../models/model-tables';
import { listIntegrationDatasetTables, resolveIntegrationDatasetTable } from '../integrations/dataset-tables';
import { STATIC_SCHEMA, warehouseTableName } from '../static-tables/physical';
import { listColumns } from '../static-tables/repo';
import { keepDerived, keptDerived } from '../../warehouse/derived-cache';
import type { WarehouseExecutor } from '../../warehouse/types';
import { compileTableQuery, staticRelation, withSqlTypes, type TableRelation } from './relations';
import { toDisplayRows } from './display-values';
import { downloadQuery, type DownloadRequest } from './download-query';
import { namingOverflow } from './overflow';

/**
 * Reads any table of the account (static tables now; integration datasets and model versions
 * join as their areas land) through one paging, counting and download path.
 */
interface StaticTableRead {
  table: { id: string; name: string; row_count: number };
  columns: Column[];
}

function staticSummary(id: string, name: string, columns: Column[]): TableSummary {
  return { id, type: 'StaticTable', groupId: 'static', groupName: 'Tables', name, columns, status: 'Active' };
}

export function createTablesService(deps: Deps) {
  const { db } = deps;

  /**
   * A static table's row and columns. Pages and counts may use the ones kept since the table was
   * last written (derived-cache.ts): every write of its rows or columns moves its relation's version.
   * Its name is not kept in step (a rename writes no rows), so summaries read it afresh.
   */
  async function staticTable(ctx: AccountContext, id: string, kept: boolean, executor: WarehouseExecutor) {
    const key = `static-table:${id}`;
    const known = kept ? keptDerived<StaticTableRead>(executor, key) : undefined;
    if (known) return known;
    const writesBefore = executor.writesSettled();
    const table = await db
      .selectFrom('static_tables')
      .select(['id', 'name', 'row_count'])
      .where('id', '=', id)
      .where('account_id', '=', ctx.accountId)
      .executeTakeFirst();
    if (!table) throw notFound('Table not found.');
    const read: StaticTableRead = { table, columns: await listColumns(db, id) };
    keepDerived(executor, key, writesBefore, [`${STATIC_SCHEMA}.${warehouseTableName(id)}`], read);
    return read;
  }

  async function resolve(
    ctx: AccountContext,
    type: TableType,
    id: string,
    forRows = false,
    executor = warehouse(ctx),
  ): Promise<{ summary: TableSummary; relation: TableRelation; rowEstimate: number | null; rows?: number }> {
    if (type === 'ModelVersion') {
      const { summary, relation } = await resolveModelVersionTable(db, ctx, id, executor);
      return { summary, relation, rowEstimate: null };
    }
    if (type === 'IntegrationDataset') return resolveIntegrationDatasetTable(db, ctx.accountId, id);
    if (type !== 'StaticTable') throw notFound(`No ${type} tables exist yet.`);
    const { table, columns } = await staticTable(ctx, id, forRows, executor);
    return {
      summary: staticSummary(id, table.name, columns),
      relation: staticRelation(id, columns),
      rowEstimate: table.row_count,
      // Exact: the durable write that changes a static table's rows records their count with them.
      rows: table.row_count,
    };
  }

  const warehouse = (ctx: AccountContext) => deps.warehouse.forAccount(ctx.accountId);

  async function downloadPlan(ctx: AccountContext, type: TableType, id: string, request: DownloadRequest) {
    const { summary, relation: resolved } = await resolve(ctx, type, id);
    const relation = await withSqlTypes(warehouse(ctx), resolved, request.filterGroups);
    return { summary, relation, query: downloadQuery(relation, request) };
  }

  return {
    async list(ctx: AccountContext, { types }: TableListRequest): Promise<TableSummary[]> {
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

    async get(ctx: AccountContext, type: TableType, id: string): Promise<TableSummary> {
      return (await resolve(ctx, type, id)).summary;
    },

    /**
     * One page for infinite scroll, with the spec's `count` and `totalPages` (counted alongside the
     * page). With `withCount: false` it does not wait for a count: `count`/`totalPages` are -1 and
     * `hasMore` is true when the page came back full (the grid counts with its own call).
     */
    async page(
      ctx: AccountContext,
      type: TableType,
      id: string,
      request: TablePageRequest,
    ): Promise<Paged<Record<string, unknown>>> {
      const executor = warehouse(ctx);
      const resolved = await resolve(ctx, type, id, true, executor);
      const relation = await withSqlTypes(executor, resolved.relation, request.filterGroups);
      const rowEstimate = resolved.rowEstimate;
      const compiled = compileTableQuery(relation, request);
      const copyable: CopyableQuery = { query: compiled.query, rowEstimate, keyBoundPage: compiled.keyBoundPage };
      const [data, count] = await namingOverflow(executor, relation, () =>
        Promise.all([
          pageVia(executor, copyable, compiled.page).then((result) => result.rows),
          request.withCount ? countOf(executor, copyable, () => compiled.count, resolved.rows) : Promise.resolve(-1),
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

    async count(
      ctx: AccountContext,
      type: TableType,
      id: string,
      { filterGroups }: TableCountRequest,
    ): Promise<{ totalCount: number }> {
      const executor = warehouse(ctx);
      const resolved = await resolve(ctx, type, id, true, executor);
      const relation = await withSqlTypes(executor, resolved.relation, filterGroups);
      const rowEstimate = resolved.rowEstimate;
      const compiled = compileTableQuery(relation, { page: 1, pageSize: 1, filterGroups, sorting: [] });
      const totalCount = await namingOverflow(executor, relation, () =>
        countOf(executor, { query: compiled.query, rowEstimate }, () => compiled.count, resolved.rows),
      );
      return { totalCount };
    },

    /**
     * What a download writes: the table's summary, its relation and the query of its rows (display
     * names as headers, the grid's filters and sort). Reports read the same rows (modules/reports).
     */
    downloadPlan,

    /** The table (display names as headers) with the grid's filters and sort, streamed from a file DuckDB writes. */
    async download(
      ctx: AccountContext,
      type: TableType,
      id: string,
      format: ExportFormat,
      request: DownloadRequest,
    ): Promise<{ stream: Readable; fileName: string; format: ExportFormat }> {
      const { summary, relation, query } = await downloadPlan(ctx, type, id, request);
      const stream = await namingOverflow(warehouse(ctx), relation, () => exportTable(warehouse(ctx), query, format));
      const safeName = summary.name.replace(/[^\w .-]+/g, '_').trim() || 'table';
      return { stream, fileName: `${safeName}.${format}`, format };
    },
  };

  /**
   * Rows passing the request's filters. With no filter, a table whose row count is recorded with its
   * rows (a static table) answers from it; large tables' filtered counts may come from an ordered
   * copy (warehouse/ordered-copies.ts).
   */
  async function countOf(
    executor: WarehouseExecutor,
    copyable: CopyableQuery,
    plain: () => CompiledQuery,
    recordedRows: number | undefined,
  ): Promise<number> {
    const unfiltered = copyable.query.filterGroups.every((group) => group.filters.length === 0);
    if (unfiltered && recordedRows !== undefined) return recordedRows;
    return (await countVia(executor, copyable, plain())).count;
  }
}

export type TablesService = ReturnType<typeof createTablesService>;

/**
 * A pivot's data: the key query for its column keys, then one query for a chunk of grid rows
 * (src/engine/pivot). Serves the grid in chunks and the whole pivot for export.
 */
import {
  compilePivotColumnKeys,
  compilePivotQuery,
  isModelError,
  readPivotColumnKeys,
  shapePivotRows,
  type RelationColumn,
} from '../../../engine';
import type { ColumnFormat } from '../../../shared/models';
import {
  PIVOT_MAX_COLUMN_KEYS,
  pivotValueDecimals,
  type Pivot,
  type PivotLayout,
  type PivotPage,
  type PivotRow,
} from '../../../shared/pivots';
import type { ColumnType } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { badInput, notFound } from '../../errors';
import { CHART_LIMITS } from '../../../shared/charts';
import type { ModelChartRequest, PivotPageRequest } from '../../../shared/models-api';
import { relationSqlTypes } from '../../warehouse/relation-types';
import type { WarehouseExecutor } from '../../warehouse/types';
import { namingOverflow } from '../tables/overflow';
import { engineColumns, withSqlTypes, type TableRelation } from '../tables/relations';
import { resolveModelVersionTable } from './model-tables';

/** Most rows an export writes; a pivot beyond it is cut with a note in the file. */
export const PIVOT_EXPORT_MAX_ROWS = 100_000;

interface PivotTarget {
  relation: TableRelation;
  pivot: Pivot;
  name: string;
  /** The model's column formats by key: value fields that keep their column's unit show in them. */
  formats: ReadonlyMap<string, ColumnFormat | null>;
}

/** Sum, Min, Max and Avg of a column shown as they are keep its unit, so its format applies. */
const KEEPS_UNIT = new Set(['Sum', 'Min', 'Max', 'Avg']);

/** The engine's layout with each value field's column format and the decimals that follow from it. */
function withFormats(layout: PivotLayout, target: PivotTarget): PivotLayout {
  const types = target.relation.sqlTypes;
  const values = layout.values.map((value) => {
    const format = target.formats.get(value.column) ?? null;
    const keeps = value.showAs === 'Default' && KEEPS_UNIT.has(value.function);
    const sqlType = types?.get(value.column);
    return {
      ...value,
      decimals: pivotValueDecimals(value, { sqlType, format }),
      format: keeps ? format : null,
    };
  });
  return { ...layout, values };
}

/**
 * Whether a value field depends on its column's SQL type: its decimals (a sum of an integer column
 * is whole), or its average (a DECIMAL's is taken from its exact sum). Then the types are read before
 * the query (once per table version).
 */
function needsSqlTypes(pivot: Pivot, relation: TableRelation): boolean {
  const numbers = new Set(relation.columns.filter((c) => c.type === 'Number').map((c) => c.columnKey));
  return pivot.values.some((v) => numbers.has(v.column) && (v.function === 'Avg' || v.showAs === 'Default'));
}

function relationColumns(relation: TableRelation): RelationColumn[] {
  return engineColumns(relation);
}

/**
 * The engine's user-fixable problems (too many column keys, a Json field) answer 400, and so does a
 * number out of range, naming the column that overflows.
 */
async function userFixable<T>(warehouse: WarehouseExecutor, target: PivotTarget, work: () => Promise<T>): Promise<T> {
  try {
    return await namingOverflow(warehouse, target.relation, work);
  } catch (error) {
    if (isModelError(error)) throw badInput(error.message);
    throw error;
  }
}

async function columnKeys(warehouse: WarehouseExecutor, target: PivotTarget) {
  const input = {
    relation: target.relation.source,
    columns: relationColumns(target.relation),
    pivot: target.pivot,
    limit: PIVOT_MAX_COLUMN_KEYS,
  };
  if (target.pivot.columns.length === 0 || target.pivot.values.length === 0) return [];
  const rows = await warehouse.all(compilePivotColumnKeys(input));
  return readPivotColumnKeys({ columns: input.columns, pivot: target.pivot, rows, limit: input.limit });
}

async function chunk(
  warehouse: WarehouseExecutor,
  target: PivotTarget,
  keys: Awaited<ReturnType<typeof columnKeys>>,
  offset: number,
  limit: number,
): Promise<{ layout: PivotLayout; rows: PivotRow[] }> {
  const { compiled, layout } = compilePivotQuery({
    relation: target.relation.source,
    columns: relationColumns(target.relation),
    pivot: target.pivot,
    columnKeys: keys,
    page: { offset, limit },
  });
  return { layout: withFormats(layout, target), rows: shapePivotRows(layout, await warehouse.all(compiled)) };
}

/**
 * What each layout column holds: a row field its column's type; a value a number, except Min and
 * Max, which keep their column's type (the earliest date is a date).
 */
function cellTypes(layout: PivotLayout, relation: TableRelation): ColumnType[] {
  const types = new Map(relation.columns.map((c) => [c.columnKey, c.type]));
  return layout.columns.map((column) => {
    if (column.kind === 'row-field') {
      const field = layout.rowFields[layout.columns.indexOf(column)];
      // A grained date field holds labels (`2024-Q1`); a day is still a date.
      if (field?.grain && field.grain !== 'day') return 'Text';
      return (field && types.get(field.column)) ?? 'Text';
    }
    const value = column.valueIndex === null ? undefined : layout.values[column.valueIndex];
    if (!value) return 'Number';
    const keepsType = value.function === 'Min' || value.function === 'Max';
    return keepsType ? (types.get(value.column) ?? 'Text') : 'Number';
  });
}

export function createPivotData(deps: Deps) {
  const warehouse = (ctx: AccountContext) => deps.warehouse.forAccount(ctx.accountId);

  async function target(ctx: AccountContext, versionId: string, pivotKey: string): Promise<PivotTarget> {
    const table = await resolveModelVersionTable(deps.db, ctx, versionId, warehouse(ctx));
    const pivot = table.version.definition.pivots.find((p) => p.key === pivotKey);
    if (!pivot) throw notFound('Pivot not found.');
    // A field naming a removed column gets the model's own message, not the engine's "unknown column".
    const problem = table.described.errors.pivots.find((issue) => issue.pivotKey === pivotKey);
    if (problem) throw badInput(problem.message);
    // A filter comparing a Number column binds its value in the column's SQL type, exactly.
    const filters = pivot.filters.map((f) => ({ columnKey: f.column, operator: f.operator }));
    let relation = await withSqlTypes(warehouse(ctx), table.relation, [{ filters }]);
    if (!relation.sqlTypes && needsSqlTypes(pivot, relation)) {
      relation = { ...relation, sqlTypes: await relationSqlTypes(warehouse(ctx), relation.source) };
    }
    const formats = new Map(table.version.definition.columns.map((c) => [c.columnKey, c.format]));
    return { relation, pivot, name: `${table.model.name} - ${pivot.name}`, formats };
  }

  return {
    /** One chunk of the pivot grid (200 rows by default), with its layout. */
    async page(
      ctx: AccountContext,
      versionId: string,
      pivotKey: string,
      { page, pageSize }: PivotPageRequest,
    ): Promise<PivotPage> {
      const found = await target(ctx, versionId, pivotKey);
      return userFixable(warehouse(ctx), found, async () => {
        const keys = await columnKeys(warehouse(ctx), found);
        const offset = (page - 1) * pageSize;
        // One row more than asked tells whether another chunk follows.
        const { layout, rows } = await chunk(warehouse(ctx), found, keys, offset, pageSize + 1);
        return { layout, rows: rows.slice(0, pageSize), offset, hasMore: rows.length > pageSize };
      });
    },

    /**
     * A model sheet as a chart: the version's rows summed up by the category (a pivot with one row
     * field and no totals, made for the call), at most `CHART_LIMITS.maxCategories` categories:
     * dates in time order, other categories largest first by the first series, so the cap keeps
     * the biggest. `hasMore` says that more were left out.
     */
    async chart(ctx: AccountContext, versionId: string, request: ModelChartRequest): Promise<PivotPage> {
      const table = await resolveModelVersionTable(deps.db, ctx, versionId, warehouse(ctx));
      const pivot: Pivot = {
        key: 'chart',
        name: 'Chart',
        filters: [],
        rows: [
          {
            column: request.category.column,
            grain: request.category.grain,
            sort: request.category.grain
              ? { direction: 'Ascending', valueIndex: null }
              : { direction: 'Descending', valueIndex: 0 },
          },
        ],
        columns: [],
        values: request.series.map((series) => ({
          column: series.column,
          function: series.function,
          showAs: 'Default',
          displayName: null,
        })),
        showRowTotals: false,
        showColumnTotals: false,
        chart: null,
      };
      let relation = table.relation;
      if (needsSqlTypes(pivot, relation)) {
        relation = { ...relation, sqlTypes: await relationSqlTypes(warehouse(ctx), relation.source) };
      }
      const formats = new Map(table.version.definition.columns.map((c) => [c.columnKey, c.format]));
      const found: PivotTarget = { relation, pivot, name: table.model.name, formats };
      return userFixable(warehouse(ctx), found, async () => {
        const limit = CHART_LIMITS.maxCategories;
        const { layout, rows } = await chunk(warehouse(ctx), found, [], 0, limit + 1);
        return { layout, rows: rows.slice(0, limit), offset: 0, hasMore: rows.length > limit };
      });
    },

    /** The whole pivot as the grid's chunks hold it, with each layout column's value type, for export. */
    async all(
      ctx: AccountContext,
      versionId: string,
      pivotKey: string,
    ): Promise<{ layout: PivotLayout; rows: PivotRow[]; cellTypes: ColumnType[]; name: string; truncated: boolean }> {
      const found = await target(ctx, versionId, pivotKey);
      const { rows: fields, columns, values } = found.pivot;
      if (fields.length + columns.length + values.length === 0) {
        throw badInput('The pivot is empty: add rows, columns or values before exporting it.');
      }
      return userFixable(warehouse(ctx), found, async () => {
        const keys = await columnKeys(warehouse(ctx), found);
        const { layout, rows } = await chunk(warehouse(ctx), found, keys, 0, PIVOT_EXPORT_MAX_ROWS + 1);
        return {
          layout,
          rows: rows.slice(0, PIVOT_EXPORT_MAX_ROWS),
          cellTypes: cellTypes(layout, found.relation),
          name: found.name,
          truncated: rows.length > PIVOT_EXPORT_MAX_ROWS,
        };
      });
    },
  };
}

export type PivotData = ReturnType<typeof createPivotData>;

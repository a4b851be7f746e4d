/**
 * The spec's Pivot entity (data-areas.md §3) and the shape of the pivot data the API returns, shared
 * by the server (validation, engine input) and the client (editor, grid).
 */
import { z } from 'zod';
import { nameSchema } from './accounts';
import { pivotChartSchema } from './charts';
import type { ColumnFormat } from './models';
import { FILTER_OPERATORS, SORT_DIRECTIONS, type ColumnType } from './tables';

export const PIVOT_AGGREGATIONS = ['Count', 'CountUnique', 'Sum', 'Min', 'Max', 'Avg'] as const;
export type PivotAggregation = (typeof PIVOT_AGGREGATIONS)[number];

export const AGGREGATION_LABELS: Record<PivotAggregation, string> = {
  Count: 'Count',
  CountUnique: 'Count unique',
  Sum: 'Sum',
  Min: 'Min',
  Max: 'Max',
  Avg: 'Average',
};

/** Which aggregations apply to a column type; Json and Array columns cannot be pivot fields at all. */
export const AGGREGATIONS_BY_TYPE: Record<ColumnType, readonly PivotAggregation[]> = {
  Number: PIVOT_AGGREGATIONS,
  Text: ['Count', 'CountUnique', 'Min', 'Max'],
  Date: ['Count', 'CountUnique', 'Min', 'Max'],
  DateTime: ['Count', 'CountUnique', 'Min', 'Max'],
  Boolean: ['Count', 'CountUnique'],
  Array: [],
  Json: [],
};

/** Column types that can be a row, column or value field (and be chosen in the editor). */
export function isPivotableType(type: ColumnType): boolean {
  return type !== 'Array' && type !== 'Json';
}

export const PIVOT_SHOW_AS = ['Default', 'PercentOfRow', 'PercentOfColumn', 'PercentOfGrandTotal'] as const;
export type PivotShowAs = (typeof PIVOT_SHOW_AS)[number];

export const SHOW_AS_LABELS: Record<PivotShowAs, string> = {
  Default: 'Default',
  PercentOfRow: '% of Row',
  PercentOfColumn: '% of Column',
  PercentOfGrandTotal: '% of Grand Total',
};

export const PIVOT_LIMITS = {
  /** Rows per chunk of pivot data (spec §9), loaded with infinite scroll. */
  chunkRows: 200,
  /** Most combinations of column-field values one pivot shows; more is a ModelError. */
  maxColumnKeys: 200,
  maxRowFields: 10,
  maxColumnFields: 10,
  maxValues: 20,
  maxFilters: 50,
} as const;

export const PIVOT_MAX_COLUMN_KEYS = PIVOT_LIMITS.maxColumnKeys;

/** The header of the row-totals column and the label of total rows. */
export const PIVOT_TOTAL_LABEL = 'Total';

const columnKeySchema = z.string().min(1).max(200);

/**
 * How the keys of a row or column field are ordered: by the key itself, or (`valueIndex`, an index
 * into `values`) by that value field's aggregate over each key. Nulls always come last.
 */
export const pivotSortSchema = z.object({
  direction: z.enum(SORT_DIRECTIONS).default('Ascending'),
  valueIndex: z.number().int().min(0).nullable().default(null),
});
export type PivotSort = z.infer<typeof pivotSortSchema>;

/**
 * Time grains a Date or DateTime row or column field groups by (weeks are ISO weeks, from Monday).
 * Each group is named by its label (`pivotGrainLabel`), and groups sort by time.
 */
export const PIVOT_TIME_GRAINS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type PivotTimeGrain = (typeof PIVOT_TIME_GRAINS)[number];

export const PIVOT_TIME_GRAIN_LABELS: Record<PivotTimeGrain, string> = {
  day: 'Day',
  week: 'Week',
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
};

/** How a group of each grain is named in headers, cells and exports. */
export const PIVOT_TIME_GRAIN_EXAMPLES: Record<PivotTimeGrain, string> = {
  day: '2024-01-31',
  week: '2024-W05',
  month: '2024-01',
  quarter: '2024-Q1',
  year: '2024',
};

/** Column types a time grain applies to. */
export function takesTimeGrain(type: ColumnType): boolean {
  return type === 'Date' || type === 'DateTime';
}

/** A row or column field. */
export const pivotFieldSchema = z.object({
  column: columnKeySchema,
  sort: pivotSortSchema.default({ direction: 'Ascending', valueIndex: null }),
  /** Date and DateTime fields: group by this grain; null groups by the exact value. */
  grain: z.enum(PIVOT_TIME_GRAINS).nullable().default(null),
});
export type PivotField = z.infer<typeof pivotFieldSchema>;

export const pivotValueSchema = z.object({
  column: columnKeySchema,
  function: z.enum(PIVOT_AGGREGATIONS).default('Sum'),
  showAs: z.enum(PIVOT_SHOW_AS).default('Default'),
  /** Empty or null: "Sum of Amount" (see `pivotValueLabel`). */
  displayName: z.string().max(200).nullable().default(null),
});
export type PivotValue = z.infer<typeof pivotValueSchema>;

const filterValueSchema = z
  .union([z.string().max(10_000), z.number(), z.boolean()])
  .nullable()
  .optional();

/** Pivot filters have the semantics of table filters (operator and value per column); all must hold. */
export const pivotFilterSchema = z.object({
  column: columnKeySchema,
  operator: z.enum(FILTER_OPERATORS),
  value: filterValueSchema,
  /** The upper bound of Between. */
  value2: filterValueSchema,
});
export type PivotFilter = z.infer<typeof pivotFilterSchema>;

export const pivotSchema = z.object({
  key: z.string().min(1).max(100),
  name: nameSchema,
  filters: z.array(pivotFilterSchema).max(PIVOT_LIMITS.maxFilters).default([]),
  rows: z.array(pivotFieldSchema).max(PIVOT_LIMITS.maxRowFields).default([]),
  columns: z.array(pivotFieldSchema).max(PIVOT_LIMITS.maxColumnFields).default([]),
  values: z.array(pivotValueSchema).max(PIVOT_LIMITS.maxValues).default([]),
  /** A Total column at the right of each row: each value over all column keys (with column fields). */
  showRowTotals: z.boolean().default(true),
  /** A Total row at the bottom (and a subtotal row after each group of an outer row field). */
  showColumnTotals: z.boolean().default(true),
  /** Whether the pivot shows as a chart, and which (chart-settings.ts); null: the table. */
  chart: pivotChartSchema.nullable().default(null),
});
export type Pivot = z.infer<typeof pivotSchema>;

/**
 * A value field's header: its display name, else what it shows: "Sum of Amount", or for a
 * percentage the show-as first ("% of Row · Amount"; "% of Row · Count of Amount" when the
 * percentage is not of a sum), so the header says what the numbers are.
 */
export function pivotValueLabel(
  value: Pick<PivotValue, 'function' | 'displayName'> & { showAs?: PivotShowAs },
  columnLabel: string,
): string {
  const name = value.displayName?.trim();
  if (name) return name;
  const label = `${AGGREGATION_LABELS[value.function]} of ${columnLabel}`;
  if (value.showAs === undefined || value.showAs === 'Default') return label;
  return `${SHOW_AS_LABELS[value.showAs]} · ${value.function === 'Sum' ? columnLabel : label}`;
}

/** A row or column field's header: its column's name, with the grain it groups by ("Order date (Month)"). */
export function pivotFieldLabel(columnLabel: string, grain: PivotTimeGrain | null | undefined): string {
  return grain ? `${columnLabel} (${PIVOT_TIME_GRAIN_LABELS[grain]})` : columnLabel;
}

/** Integer SQL types (DuckDB's names): sums, minimums and maximums of them are whole numbers. */
const INTEGER_SQL_TYPE = /^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|INT[1248]|SHORT|LONG|BIGNUM)$/i;

/** Decimals of percentages ("12.50%") and of averages and non-integer numbers without a format. */
export const PIVOT_DEFAULT_DECIMALS = 2;

/**
 * How many decimals every cell of a value field (its totals too) shows, one rule per field so a
 * column never mixes 2 and 6 decimals: percentages 2; counts 0; otherwise the column's format
 * when it sets decimals; else averages 2, and sums, minimums and maximums 0 for integer columns
 * and 2 for others.
 */
export function pivotValueDecimals(
  value: { function: PivotAggregation; showAs: PivotShowAs },
  column: { sqlType?: string | undefined; format?: ColumnFormat | null | undefined },
): number {
  if (value.showAs !== 'Default') return PIVOT_DEFAULT_DECIMALS;
  if (value.function === 'Count' || value.function === 'CountUnique') return 0;
  const fixed = column.format?.decimalPlaces;
  if (fixed !== undefined && fixed !== null) return fixed;
  if (value.function === 'Avg') return PIVOT_DEFAULT_DECIMALS;
  return column.sqlType && INTEGER_SQL_TYPE.test(column.sqlType.trim()) ? 0 : PIVOT_DEFAULT_DECIMALS;
}

const NEW_PIVOT_NAME = /^Pivot table (\d+)$/;

/**
 * A new, empty pivot named 'Pivot table N' (one more than the largest N in use, so names never
 * repeat) with both totals on, and a fresh 4-letter key.
 */
export function newPivot(existing: readonly Pick<Pivot, 'key' | 'name'>[], random: () => number = Math.random): Pivot {
  const numbers = existing.map((pivot) => Number(NEW_PIVOT_NAME.exec(pivot.name)?.[1] ?? 0));
  const next = Math.max(existing.length, ...numbers) + 1;
  const keys = new Set(existing.map((pivot) => pivot.key));
  let key: string;
  do {
    key = Array.from({ length: 4 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
  } while (keys.has(key));
  return {
    key,
    name: `Pivot table ${next}`,
    filters: [],
    rows: [],
    columns: [],
    values: [],
    showRowTotals: true,
    showColumnTotals: true,
    chart: null,
  };
}

// ---- Pivot data, as the API returns it ----

/** One combination of column-field values, as text (the form the pivot groups and matches by). */
export type PivotColumnKey = (string | null)[];

/** A cell as JSON: numbers, text (also dates, times and numbers too large for a double), booleans. */
export type PivotCellValue = string | number | boolean | null;

export interface PivotFieldHeader {
  column: string;
  label: string;
}

export interface PivotGroupFieldHeader extends PivotFieldHeader {
  /** The time grain a Date or DateTime field groups by: its keys are labels such as `2024-Q1`. */
  grain: PivotTimeGrain | null;
}

export interface PivotValueHeader extends PivotFieldHeader {
  function: PivotAggregation;
  showAs: PivotShowAs;
  /** Cells of this value are fractions (0.25 = 25%) to show as percentages. */
  percent: boolean;
  /** Decimals every number of this value shows (`pivotValueDecimals`), totals included. */
  decimals: number;
  /**
   * The value's column format (prefix, suffix, separators, multiplier, style) when the aggregate
   * keeps the column's unit (Sum, Min, Max, Avg shown as they are); null otherwise.
   */
  format: ColumnFormat | null;
}

/**
 * One column of the grid, left to right: row fields, then for each column key each value, then the
 * row totals. `path` is the header from top to bottom: `[label]` for a row field, the column key's
 * values then the value's label for a value, `['Total', label]` for a row total; a grid groups
 * neighbouring headers with equal path prefixes.
 */
export interface PivotLayoutColumn {
  /** The cell's key in `PivotRow.cells`. */
  key: string;
  kind: 'row-field' | 'value' | 'row-total';
  label: string;
  path: (string | null)[];
  /** Index into `columnKeys` ('value' cells of a pivot with column fields), else null. */
  columnKeyIndex: number | null;
  /** Index into `values` ('value' and 'row-total'), else null. */
  valueIndex: number | null;
  percent: boolean;
}

export interface PivotLayout {
  rowFields: PivotGroupFieldHeader[];
  columnFields: PivotGroupFieldHeader[];
  values: PivotValueHeader[];
  columnKeys: PivotColumnKey[];
  columns: PivotLayoutColumn[];
}

/**
 * A row of the grid. `level` is how many row fields it is grouped by: all of them for a detail row,
 * fewer for a subtotal (its inner row-field cells are null), 0 for the grand total row.
 */
export interface PivotRow {
  cells: Record<string, PivotCellValue>;
  level: number;
  isTotal: boolean;
}

/** A chunk of pivot data: rows `offset` to `offset + rows.length`; `hasMore` when more follow. */
export interface PivotPage {
  layout: PivotLayout;
  rows: PivotRow[];
  offset: number;
  hasMore: boolean;
}

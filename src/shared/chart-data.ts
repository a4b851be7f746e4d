/**
 * What a chart draws, made from pivot data (a pivot, or a model sheet summed up by the server in
 * the same shape): the pivot's rows are the categories, its value columns (column keys × value
 * fields, row totals left out) the series. Total and subtotal rows are not categories. Pure.
 */
import { CHART_LIMITS } from './charts';
import type { PivotCellValue, PivotLayout, PivotRow } from './pivots';

/** A null column-field value in a label, as the grid and the exports write it. */
const EMPTY_KEY_LABEL = '(empty)';

/** Mantine theme colors, in the order series take them (SERIES_HEX: the same colors as hex, for a PDF). */
export const SERIES_COLORS = [
  'blue.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'red.6',
  'cyan.6',
  'lime.7',
  'pink.6',
  'indigo.6',
  'yellow.7',
] as const;

/** Mantine's default palette for SERIES_COLORS, in the same order. */
export const SERIES_HEX = [
  '#228be6',
  '#12b886',
  '#fd7e14',
  '#be4bdb',
  '#fa5252',
  '#15aabf',
  '#74b816',
  '#e64980',
  '#4c6ef5',
  '#f59f00',
] as const;

export interface ChartSeriesDef {
  /** The key of the series' numbers in each category's record. */
  key: string;
  label: string;
  color: string;
}

export const CATEGORY_KEY = 'category';

export interface ChartData {
  /** One record per category: its label under `category`, each series' number (or null) under its key. */
  records: Record<string, string | number | null>[];
  series: ChartSeriesDef[];
  /** Values are percentages (0 to 100) rather than amounts. */
  percent: boolean;
  /** More categories exist than the chart draws (`CHART_LIMITS.maxCategories`). */
  truncated: boolean;
}

/** A cell as a number a chart can draw: exact big numbers (text) as their nearest double, others none. */
function chartNumber(value: PivotCellValue, percent: boolean): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number) || (typeof value === 'string' && value.trim() === '')) return null;
  return percent ? number * 100 : number;
}

/** A series' name: the column key's parts, then the value's label when there are several values. */
function seriesLabel(path: readonly (string | null)[], valueCount: number, hasKeys: boolean): string {
  const parts = path.map((part) => part ?? EMPTY_KEY_LABEL);
  if (hasKeys && valueCount === 1) return parts.slice(0, -1).join(' / ');
  return parts.join(' / ');
}

export function pivotChartData(layout: PivotLayout, rows: readonly PivotRow[], hasMore: boolean): ChartData {
  const valueColumns = layout.columns.filter((column) => column.kind === 'value');
  const fieldColumns = layout.columns.filter((column) => column.kind === 'row-field');
  const hasKeys = layout.columnFields.length > 0;
  const series = valueColumns.map((column, index) => ({
    key: `s${index}`,
    label: seriesLabel(column.path, layout.values.length, hasKeys),
    color: SERIES_COLORS[index % SERIES_COLORS.length]!,
  }));
  const percent = valueColumns.length > 0 && valueColumns.every((column) => column.percent);
  const detail = rows.filter((row) => !row.isTotal);
  const shown = detail.slice(0, CHART_LIMITS.maxCategories);
  const records = shown.map((row) => {
    const label =
      fieldColumns.length === 0
        ? 'Total'
        : fieldColumns.map((column) => String(row.cells[column.key] ?? EMPTY_KEY_LABEL)).join(' · ');
    const record: Record<string, string | number | null> = { [CATEGORY_KEY]: label };
    valueColumns.forEach((column, index) => {
      record[`s${index}`] = chartNumber(row.cells[column.key] ?? null, column.percent);
    });
    return record;
  });
  return { records, series, percent, truncated: hasMore || detail.length > shown.length };
}

/** Slices of a pie: one series' positive values (a pie cannot show negatives or nothing). */
export function pieSlices(data: ChartData, seriesKey: string): { name: string; value: number; color: string }[] {
  return data.records.flatMap((record, index) => {
    const value = record[seriesKey];
    if (typeof value !== 'number' || value <= 0) return [];
    return [{ name: String(record[CATEGORY_KEY]), value, color: SERIES_COLORS[index % SERIES_COLORS.length]! }];
  });
}

const chartNumberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** How tooltips and axes write a chart's numbers. */
export function formatChartValue(value: number, percent: boolean): string {
  return `${chartNumberFormat.format(value)}${percent ? '%' : ''}`;
}

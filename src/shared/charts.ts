/**
 * Charts of a pivot or a model sheet (issue 13): the chart types, how a pivot's chart is saved
 * with the pivot, and the limits every chart shares.
 */
import { z } from 'zod';

export const CHART_TYPES = ['bar', 'line', 'area', 'pie'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export const CHART_TYPE_LABELS: Record<ChartType, string> = {
  bar: 'Bar',
  line: 'Line',
  area: 'Area',
  pie: 'Pie',
};

export const CHART_LIMITS = {
  /** Most categories (bars, points, slices) one chart draws; more are left out with a note. */
  maxCategories: 50,
  /** Most series a model chart sums up (number columns chosen). */
  maxSeries: 10,
} as const;

/**
 * A pivot's chart, saved with the pivot: its type, and whether the pivot page shows it instead of
 * the table (a pivot that was never charted has `chart: null` and shows the table).
 */
export const pivotChartSchema = z.object({
  type: z.enum(CHART_TYPES).default('bar'),
  shown: z.boolean().default(true),
});
export type PivotChart = z.infer<typeof pivotChartSchema>;

/** The aggregations a model chart offers for its number columns (Count counts rows of any column). */
export const MODEL_CHART_AGGREGATIONS = ['Sum', 'Avg', 'Count'] as const;
export type ModelChartAggregation = (typeof MODEL_CHART_AGGREGATIONS)[number];

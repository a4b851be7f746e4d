/**
 * "Save as report" (issue 14): what a user saves (a static table, a model sheet, a pivot, a model
 * chart, each as the screen shows it), in which format, and what the call answers. The report itself
 * is a file of the Reports page (the files area); its generation runs on the server in the background.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { CHART_TYPES } from './charts';
import { modelChartRequestSchema } from './models-api';
import { pageRequestSchema } from './tables';

export const REPORT_FORMATS = ['csv', 'xlsx', 'parquet', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_FORMAT_LABELS: Record<ReportFormat, string> = {
  csv: 'CSV',
  xlsx: 'XLSX',
  parquet: 'Parquet',
  pdf: 'PDF',
};

export const REPORT_CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  parquet: 'application/vnd.apache.parquet',
  pdf: 'application/pdf',
};

export const REPORT_LIMITS = {
  /**
   * Most rows a PDF holds (about 200 landscape pages): a PDF is for reading, a larger table belongs
   * in CSV, XLSX or Parquet, which hold every row. A capped PDF says so on its last page.
   */
  pdfMaxRows: 5_000,
  /** Reports the server generates at the same time (all accounts); more wait their turn. */
  concurrentPerServer: 2,
} as const;

export const REPORT_MESSAGES = {
  pdfCapped: (shown: number, total: number) =>
    `Only the first ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows are in this PDF. Save the report as CSV, XLSX or Parquet for every row.`,
  pdfCapHint: `A PDF holds the first ${REPORT_LIMITS.pdfMaxRows.toLocaleString('en-US')} rows; CSV, XLSX and Parquet hold every row.`,
  interrupted: 'The server stopped while this report was being generated. Save it again.',
  readyTitle: 'Report ready',
  failedTitle: 'Report failed',
} as const;

const viewSchema = pageRequestSchema.pick({ filterGroups: true, sorting: true });

/**
 * What is saved. A model sheet and a pivot name the version on screen (the draft or the published
 * one); a table and a model sheet carry the grid's filters and sort, as its download does.
 */
export const reportSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('StaticTable'), id: idSchema, ...viewSchema.shape }),
  z.object({ kind: z.literal('Model'), modelId: idSchema, versionId: idSchema, ...viewSchema.shape }),
  z.object({ kind: z.literal('Pivot'), modelId: idSchema, versionId: idSchema, pivotKey: z.string().min(1).max(100) }),
  z.object({
    kind: z.literal('ModelChart'),
    modelId: idSchema,
    versionId: idSchema,
    chart: modelChartRequestSchema,
    chartType: z.enum(CHART_TYPES).default('bar'),
  }),
]);
export type ReportSource = z.output<typeof reportSourceSchema>;

/** POST /api/reports and reports.create. */
export const createReportSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'Enter a name for the report.' })
    .max(200, { error: 'A report name has at most 200 characters.' }),
  format: z.enum(REPORT_FORMATS, { error: 'Choose CSV, XLSX, Parquet or PDF.' }),
  source: reportSourceSchema,
});
export type CreateReportRequest = z.output<typeof createReportSchema>;

export const REPORT_STATUSES = ['Pending', 'Ready', 'Failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A report's generation as its requester follows it: progress 0 to 100, the reason when it failed. */
export const reportProgressSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(REPORT_STATUSES),
  progress: z.number().min(0).max(100),
  error: z.string().nullable(),
});
export type ReportProgress = z.infer<typeof reportProgressSchema>;

export const reportIdSchema = z.object({ id: idSchema });

/**
 * The model and pivot calls as schemas: the tRPC procedures' inputs, the REST paths' parts, and the
 * answers (the OpenAPI document describes them). The entity types stay in models.ts and pivots.ts;
 * each answer schema here is checked against its type (`satisfies`), so the two cannot drift apart.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { idParamsSchema } from './api';
import { CHART_LIMITS, MODEL_CHART_AGGREGATIONS } from './charts';
import type { FormulaFunctionInfo } from './functions';
import {
  MODEL_STATUSES,
  addColumnSchema,
  columnErrorSchema,
  duplicateModelSchema,
  renameModelSchema,
  filterGroupsInputSchema,
  joinSchema,
  joinsInputSchema,
  pivotsInputSchema,
  reorderColumnsSchema,
  sortInputSchema,
  sourceColumnSchema,
  sourceRefSchema,
  columnFormatSchema,
  updateColumnSchema,
  validateFunctionSchema,
  type Model,
  type ModelColumn,
  type ModelErrors,
  type ModelListItem,
  type ModelProblem,
  type ModelSourceOption,
  type ModelVersionSummary,
  type ValidateFunctionResult,
} from './models';
import {
  PIVOT_AGGREGATIONS,
  PIVOT_LIMITS,
  PIVOT_SHOW_AS,
  PIVOT_TIME_GRAINS,
  pivotSchema,
  type PivotLayout,
  type PivotPage,
} from './pivots';
import { COLUMN_TYPES, TABLE_TYPES, filterGroupSchema, sortingSchema } from './tables';

// ---- Parts of the calls ----

const columnKeySchema = z.string().min(1).max(200);

export const versionIdSchema = z.object({ versionId: idSchema });
/** GET /api/models/{id}?draft=true: the draft when there is one. */
export const modelGetQuerySchema = z.object({
  draft: z.union([z.boolean(), z.stringbool()]).default(false),
});
export const modelGetInputSchema = idParamsSchema.extend({ draft: z.boolean().default(false) });
export const modelColumnParamsSchema = idParamsSchema.extend({ columnKey: columnKeySchema });

export const modelRenameInputSchema = idParamsSchema.extend(renameModelSchema.shape);
export const modelDuplicateInputSchema = idParamsSchema.extend(duplicateModelSchema.shape);
export const addColumnInputSchema = idParamsSchema.extend({ column: addColumnSchema });
export const updateColumnInputSchema = modelColumnParamsSchema.extend({ changes: updateColumnSchema });
export const reorderColumnsInputSchema = idParamsSchema.extend(reorderColumnsSchema.shape);
export const joinsSaveInputSchema = idParamsSchema.extend(joinsInputSchema.shape);
export const pivotsSaveInputSchema = idParamsSchema.extend(pivotsInputSchema.shape);
export const filterGroupsSaveInputSchema = idParamsSchema.extend(filterGroupsInputSchema.shape);
export const sortSaveInputSchema = idParamsSchema.extend(sortInputSchema.shape);
export const validateFunctionInputSchema = versionIdSchema.extend(validateFunctionSchema.shape);

/** A chunk of pivot rows: 200 by default, as the pivot page loads them. */
export const pivotPageRequestSchema = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(1_000).default(PIVOT_LIMITS.chunkRows),
});
export const pivotParamsSchema = versionIdSchema.extend({ pivotKey: z.string().min(1).max(100) });
export const pivotPageInputSchema = pivotParamsSchema.extend(pivotPageRequestSchema.shape);
export type PivotPageRequest = z.output<typeof pivotPageRequestSchema>;

/**
 * A model sheet as a chart: its rows grouped by one category column (a date by a time grain),
 * each series an aggregate of a column, summed up on the server like a one-row-field pivot.
 */
export const modelChartRequestSchema = z.object({
  category: z.object({
    column: z.string().min(1).max(200),
    grain: z.enum(PIVOT_TIME_GRAINS).nullable().default(null),
  }),
  series: z
    .array(
      z.object({
        column: z.string().min(1).max(200),
        function: z.enum(MODEL_CHART_AGGREGATIONS).default('Sum'),
      }),
    )
    .min(1, { error: 'Choose at least one number column.' })
    .max(CHART_LIMITS.maxSeries),
});
export type ModelChartRequest = z.output<typeof modelChartRequestSchema>;
export const modelChartInputSchema = versionIdSchema.extend(modelChartRequestSchema.shape);

export const PIVOT_EXPORT_FORMAT_NAMES = ['csv', 'xlsx'] as const;
/** GET /api/models/{id}/export/pivot: which pivot, of which version (default: the one the model page shows). */
export const pivotExportQuerySchema = z.object({
  pivotKey: z.string().max(100).default(''),
  format: z.enum(PIVOT_EXPORT_FORMAT_NAMES, { error: 'Choose csv or xlsx.' }).default('csv'),
  versionId: idSchema.optional(),
});
export type PivotExportQuery = z.output<typeof pivotExportQuerySchema>;

// ---- Answers ----

const modelStatusSchema = z.enum(MODEL_STATUSES);

export const modelColumnSchema = z.object({
  columnKey: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  order: z.number(),
  type: z.enum(COLUMN_TYPES),
  format: columnFormatSchema.nullable(),
  displayWidth: z.number().nullable(),
  function: z.string().nullable(),
  sourceColumn: sourceColumnSchema.nullable(),
  dependentColumnKeys: z.array(z.string()),
  error: columnErrorSchema.nullable(),
  castTo: z.enum(COLUMN_TYPES).nullable(),
  style: z.string().nullable(),
}) satisfies z.ZodType<ModelColumn>;

export const modelProblemSchema = z.object({
  message: z.string(),
  location: z.array(z.union([z.string(), z.number()])),
  missingColumnKeys: z.array(z.string()),
  columnKey: z.string().optional(),
  pivotKey: z.string().optional(),
  section: z.string().optional(),
  index: z.number().optional(),
  joinIndex: z.number().optional(),
  groupIndex: z.number().optional(),
  conditionIndex: z.number().optional(),
  filterIndex: z.number().optional(),
  side: z.enum(['left', 'right']).optional(),
}) satisfies z.ZodType<ModelProblem>;

export const modelErrorsSchema = z.object({
  columns: z.array(modelProblemSchema),
  joins: z.array(modelProblemSchema),
  pivots: z.array(modelProblemSchema),
  filterGroups: z.array(modelProblemSchema),
  sorting: z.array(modelProblemSchema),
  hasBreakingErrors: z.boolean(),
  texts: z.array(z.string()),
}) satisfies z.ZodType<ModelErrors>;

const modelSourceSummarySchema = sourceRefSchema.extend({ name: z.string() });

export const modelSchema = z.object({
  id: z.string(),
  name: z.string(),
  versionId: z.string(),
  versionNumber: z.number().int(),
  status: modelStatusSchema,
  hasUnpublishedChanges: z.boolean(),
  isPublishing: z.boolean(),
  activeVersionId: z.string().nullable(),
  columns: z.array(modelColumnSchema),
  joins: z.array(joinSchema),
  filterGroups: z.array(filterGroupSchema),
  sort: z.array(sortingSchema),
  pivots: z.array(pivotSchema),
  sources: z.array(modelSourceSummarySchema),
  errors: modelErrorsSchema,
  viewSql: z.string(),
  modifiedAt: z.string(),
  undoLabel: z.string().nullable(),
  redoLabel: z.string().nullable(),
}) satisfies z.ZodType<Model>;

export const modelListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  sources: z.array(modelSourceSummarySchema),
  versionNumber: z.number().int().nullable(),
  activeVersionId: z.string().nullable(),
  hasUnpublishedChanges: z.boolean(),
  status: modelStatusSchema,
  isPublishing: z.boolean(),
  modifiedAt: z.string(),
}) satisfies z.ZodType<ModelListItem>;

export const modelVersionSummarySchema = z.object({
  versionId: z.string(),
  versionNumber: z.number().int(),
  status: modelStatusSchema,
  createdAt: z.string(),
  modifiedAt: z.string(),
}) satisfies z.ZodType<ModelVersionSummary>;

export const modelSourceOptionSchema = z.object({
  sourceId: z.string(),
  sourceType: z.enum(TABLE_TYPES),
  name: z.string(),
  groupName: z.string(),
  columns: z.array(z.object({ columnKey: z.string(), displayName: z.string(), type: z.enum(COLUMN_TYPES) })),
}) satisfies z.ZodType<ModelSourceOption>;

export const formulaFunctionSchema = z.object({
  name: z.string(),
  category: z.enum(['Logic', 'Text', 'Number', 'Date', 'Conversion']),
  signature: z.string(),
  description: z.string(),
  example: z.string(),
}) satisfies z.ZodType<FormulaFunctionInfo>;

export const validateFunctionResultSchema = z.object({
  valid: z.boolean(),
  message: z.string().nullable(),
  start: z.number().int().nullable(),
  end: z.number().int().nullable(),
  type: z.enum(COLUMN_TYPES).nullable(),
  dependentColumnKeys: z.array(z.string()),
}) satisfies z.ZodType<ValidateFunctionResult>;

const fieldHeaderSchema = z.object({ column: z.string(), label: z.string() });
const groupFieldHeaderSchema = fieldHeaderSchema.extend({ grain: z.enum(PIVOT_TIME_GRAINS).nullable() });

export const pivotLayoutSchema = z.object({
  rowFields: z.array(groupFieldHeaderSchema),
  columnFields: z.array(groupFieldHeaderSchema),
  values: z.array(
    fieldHeaderSchema.extend({
      function: z.enum(PIVOT_AGGREGATIONS),
      showAs: z.enum(PIVOT_SHOW_AS),
      percent: z.boolean(),
      decimals: z.number().int().min(0),
      format: columnFormatSchema.nullable(),
    }),
  ),
  columnKeys: z.array(z.array(z.string().nullable())),
  columns: z.array(
    z.object({
      key: z.string(),
      kind: z.enum(['row-field', 'value', 'row-total']),
      label: z.string(),
      path: z.array(z.string().nullable()),
      columnKeyIndex: z.number().int().nullable(),
      valueIndex: z.number().int().nullable(),
      percent: z.boolean(),
    }),
  ),
}) satisfies z.ZodType<PivotLayout>;

export const pivotPageSchema = z.object({
  layout: pivotLayoutSchema,
  rows: z.array(
    z.object({
      cells: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).nullable()),
      level: z.number().int(),
      isTotal: z.boolean(),
    }),
  ),
  offset: z.number().int(),
  hasMore: z.boolean(),
}) satisfies z.ZodType<PivotPage>;

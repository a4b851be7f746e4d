/**
 * The spec's Model, Column and Join entities (data-areas.md §3) and the inputs of the model calls
 * (§7), shared by the server (validation) and the client (editors). Pivots are in pivots.ts.
 */
import { z } from 'zod';
import { nameSchema } from './accounts';
import { pivotSchema, type Pivot } from './pivots';
import {
  COLUMN_TYPES,
  TABLE_TYPES,
  filterGroupSchema,
  sortingSchema,
  type ColumnType,
  type FilterGroup,
  type Sorting,
  type TableType,
} from './tables';

export const MODEL_STATUSES = ['Draft', 'Active', 'Inactive'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

/** How version history names a status (spec §4: Active shows as 'Used', Draft as 'Unsaved'). */
export const VERSION_STATUS_LABELS: Record<ModelStatus, string> = {
  Active: 'Used',
  Draft: 'Unsaved',
  Inactive: 'Inactive',
};

export const TIME_GRAINS = ['second', 'minute', 'hour', 'day', 'month', 'quarter', 'year'] as const;
export type TimeGrain = (typeof TIME_GRAINS)[number];

export const JOIN_TYPES = ['LeftOuter', 'RightOuter', 'Inner', 'FullOuter'] as const;
export type JoinType = (typeof JOIN_TYPES)[number];

export const JOIN_TYPE_LABELS: Record<JoinType, string> = {
  LeftOuter: 'Left join',
  RightOuter: 'Right join',
  Inner: 'Inner join',
  FullOuter: 'Full join',
};

export const JOIN_OPERATORS = [
  'Equals',
  'NotEquals',
  'GreaterThan',
  'LessThan',
  'GreaterThanOrEquals',
  'LessThanOrEquals',
] as const;
export type JoinOperator = (typeof JOIN_OPERATORS)[number];

export const COLUMN_REMOVED_MESSAGE = 'A column has been removed from the model. Please select another column.';

const keySchema = z.string().trim().min(1).max(200);

export const sourceRefSchema = z.object({ sourceId: z.string().min(1).max(100), sourceType: z.enum(TABLE_TYPES) });
export type SourceRef = z.infer<typeof sourceRefSchema>;

export const sourceColumnSchema = sourceRefSchema.extend({ columnKey: keySchema });
export type SourceColumn = z.infer<typeof sourceColumnSchema>;

/** Number formatting of a column: a multiply factor, then Number or Percent style. */
export const columnFormatSchema = z.object({
  multiplyBy: z.number().finite().nullable().default(null),
  style: z.enum(['Number', 'Percent']).default('Number'),
  thousandSeparator: z.boolean().default(true),
  decimalPlaces: z.number().int().min(0).max(10).nullable().default(null),
  prefix: z.string().max(20).default(''),
  suffix: z.string().max(20).default(''),
});
export type ColumnFormat = z.infer<typeof columnFormatSchema>;

export const columnErrorSchema = z.object({ message: z.string(), missingColumnKeys: z.array(z.string()) });
export type ColumnError = z.infer<typeof columnErrorSchema>;

/** A model column: raw (sourceColumn) or function (formula text). */
export interface ModelColumn {
  columnKey: string;
  displayName: string;
  description: string | null;
  order: number;
  type: ColumnType;
  format: ColumnFormat | null;
  displayWidth: number | null;
  function: string | null;
  sourceColumn: SourceColumn | null;
  dependentColumnKeys: string[];
  error: ColumnError | null;
  castTo: ColumnType | null;
  style: string | null;
}

const valueSchema = z
  .union([z.string().max(10_000), z.number().finite(), z.boolean()])
  .nullable()
  .default(null);

export const joinConditionSchema = z.object({
  leftColumnKey: keySchema.nullable().default(null),
  leftValue: valueSchema,
  operator: z.enum(JOIN_OPERATORS).default('Equals'),
  rightColumnKey: keySchema.nullable().default(null),
  rightValue: valueSchema,
  format: z
    .object({
      tolerance: z.number().finite().min(0).nullable().default(null),
      datePrecision: z.enum(TIME_GRAINS).nullable().default(null),
    })
    .nullable()
    .default(null),
});
export type JoinCondition = z.infer<typeof joinConditionSchema>;

export const joinSchema = z.object({
  leftTable: sourceRefSchema,
  rightTable: sourceRefSchema,
  joinType: z.enum(JOIN_TYPES).default('LeftOuter'),
  joinGroups: z
    .array(z.object({ conditions: z.array(joinConditionSchema).min(1).max(20) }))
    .min(1)
    .max(10),
});
export type Join = z.infer<typeof joinSchema>;

/** What a version stores; everything else of a model is derived from it. */
export interface ModelDefinition {
  columns: ModelColumn[];
  joins: Join[];
  filterGroups: FilterGroup[];
  sort: Sorting[];
  pivots: Pivot[];
}

export const EMPTY_DEFINITION: ModelDefinition = { columns: [], joins: [], filterGroups: [], sort: [], pivots: [] };

/** Where a reference to a removed column sits, for marking the button that edits it. */
export interface ModelProblem {
  message: string;
  /** e.g. ['joins', 0, 'joinGroups', 0, 'conditions', 1, 'leftColumnKey'] */
  location: readonly (string | number)[];
  missingColumnKeys: string[];
  columnKey?: string;
  pivotKey?: string;
  section?: string;
  index?: number;
  joinIndex?: number;
  groupIndex?: number;
  conditionIndex?: number;
  filterIndex?: number;
  side?: 'left' | 'right';
}

/** The spec's `errors` object of a model; every entry but pivot ones blocks Save/publish. */
export interface ModelErrors {
  columns: ModelProblem[];
  joins: ModelProblem[];
  pivots: ModelProblem[];
  filterGroups: ModelProblem[];
  sorting: ModelProblem[];
  hasBreakingErrors: boolean;
  texts: string[];
}

export interface ModelSourceSummary extends SourceRef {
  name: string;
}

/** The Model entity as GET /api/models/{id} answers it. */
export interface Model extends ModelDefinition {
  id: string;
  name: string;
  versionId: string;
  versionNumber: number;
  status: ModelStatus;
  hasUnpublishedChanges: boolean;
  isPublishing: boolean;
  activeVersionId: string | null;
  sources: ModelSourceSummary[];
  errors: ModelErrors;
  /** The SELECT the version's rows come from, formatted, values written as literals, columns named by their display names ("Show SQL"; the published view names them by key). */
  viewSql: string;
  modifiedAt: string;
  /** What Undo would take back in the draft ("Add column Total"); null: nothing, or not the draft. */
  undoLabel: string | null;
  /** What Redo would bring back; null: nothing. */
  redoLabel: string | null;
}

export interface ModelListItem {
  id: string;
  name: string;
  sources: ModelSourceSummary[];
  versionNumber: number | null;
  activeVersionId: string | null;
  hasUnpublishedChanges: boolean;
  status: ModelStatus;
  isPublishing: boolean;
  modifiedAt: string;
}

export interface ModelVersionSummary {
  versionId: string;
  versionNumber: number;
  status: ModelStatus;
  createdAt: string;
  modifiedAt: string;
}

// ---- Inputs of the calls ----

export const createModelSchema = z.object({ name: nameSchema });
export const renameModelSchema = z.object({ name: nameSchema });
export const duplicateModelSchema = z.object({
  versionId: z.string().min(1).max(100).nullable().optional(),
  name: z.string().trim().max(100).optional(),
});

export const addColumnSchema = z
  .object({
    displayName: z.string().trim().min(1, 'Enter a column name').max(200),
    description: z.string().max(2_000).nullable().optional(),
    sourceColumn: sourceColumnSchema.nullable().optional(),
    function: z.string().trim().min(1, 'Enter a formula').max(10_000).nullable().optional(),
    castTo: z.enum(COLUMN_TYPES).nullable().optional(),
    format: columnFormatSchema.nullable().optional(),
  })
  .refine((c) => Boolean(c.sourceColumn) !== Boolean(c.function), {
    message: 'A column takes either a source column or a function',
  });
export type AddColumnInput = z.input<typeof addColumnSchema>;

export const updateColumnSchema = z.object({
  displayName: z.string().trim().min(1, 'Enter a column name').max(200).optional(),
  description: z.string().max(2_000).nullable().optional(),
  function: z.string().trim().min(1, 'Enter a formula').max(10_000).optional(),
  castTo: z.enum(COLUMN_TYPES).nullable().optional(),
  format: columnFormatSchema.nullable().optional(),
  displayWidth: z.number().int().min(50).max(2_000).nullable().optional(),
  style: z.string().max(200).nullable().optional(),
});
export type UpdateColumnInput = z.input<typeof updateColumnSchema>;

export const reorderColumnsSchema = z.object({ columnKeys: z.array(keySchema).max(2_000) });
export const joinsInputSchema = z.object({ joins: z.array(joinSchema).max(20) });
export const pivotsInputSchema = z.object({ pivots: z.array(pivotSchema).max(50) });
export const filterGroupsInputSchema = z.object({ filterGroups: z.array(filterGroupSchema).max(50) });
export const sortInputSchema = z.object({ sort: z.array(sortingSchema).max(20) });
export const validateFunctionSchema = z.object({
  function: z.string().max(10_000),
  columnKey: keySchema.nullable().optional(),
});

export type ModelNameRequest = z.output<typeof createModelSchema>;
export type DuplicateModelRequest = z.output<typeof duplicateModelSchema>;
export type AddColumnRequest = z.output<typeof addColumnSchema>;
export type UpdateColumnRequest = z.output<typeof updateColumnSchema>;
export type ReorderColumnsRequest = z.output<typeof reorderColumnsSchema>;
export type JoinsRequest = z.output<typeof joinsInputSchema>;
export type PivotsRequest = z.output<typeof pivotsInputSchema>;
export type FilterGroupsRequest = z.output<typeof filterGroupsInputSchema>;
export type SortRequest = z.output<typeof sortInputSchema>;
export type ValidateFunctionRequest = z.output<typeof validateFunctionSchema>;

export interface ValidateFunctionResult {
  valid: boolean;
  message: string | null;
  /** Character offsets into the formula, end exclusive. */
  start: number | null;
  end: number | null;
  type: ColumnType | null;
  dependentColumnKeys: string[];
}

/** A source the column picker offers: any table of the account but this model's own versions. */
export interface ModelSourceOption extends SourceRef {
  name: string;
  groupName: string;
  columns: { columnKey: string; displayName: string; type: ColumnType }[];
}

export type { Pivot, TableType };

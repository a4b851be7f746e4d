import { z } from 'zod';
import { LIMITS } from './limits';

/** Column types of the spec; every warehouse value is shown as one of these. */
export const COLUMN_TYPES = ['Text', 'Number', 'Boolean', 'DateTime', 'Date', 'Array', 'Json'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const TABLE_TYPES = ['IntegrationDataset', 'StaticTable', 'ModelVersion'] as const;
export type TableType = (typeof TABLE_TYPES)[number];

export const FILTER_OPERATORS = [
  'Equals',
  'NotEquals',
  'Between',
  'GreaterThan',
  'LessThan',
  'GreaterThanOrEquals',
  'LessThanOrEquals',
  'Contains',
  'NotContains',
  'Exists',
  'Empty',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators that take no value, and the one that takes two. */
export const VALUELESS_OPERATORS: readonly FilterOperator[] = ['Exists', 'Empty'];
export const TWO_VALUE_OPERATORS: readonly FilterOperator[] = ['Between'];

export const CONDITION_OPERATORS = ['Or', 'And'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const SORT_DIRECTIONS = ['Ascending', 'Descending'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

const filterValueSchema = z.union([z.string(), z.number(), z.boolean()]).nullable().optional();

/**
 * One condition. `conditionOperator` joins it to the filter before it in its group (default Or).
 * Dates and times are ISO text.
 */
export const filterSchema = z.object({
  columnKey: z.string().min(1).max(200),
  operator: z.enum(FILTER_OPERATORS),
  value: filterValueSchema,
  value2: filterValueSchema,
  conditionOperator: z.enum(CONDITION_OPERATORS).default('Or'),
});
export type Filter = z.infer<typeof filterSchema>;

/** A group's filters are combined by their condition operators; groups are combined with And. */
export const filterGroupSchema = z.object({ filters: z.array(filterSchema).max(100) });
export type FilterGroup = z.infer<typeof filterGroupSchema>;

export const sortingSchema = z.object({
  columnKey: z.string().min(1).max(200),
  fieldName: z.string().max(200).optional(),
  direction: z.enum(SORT_DIRECTIONS).default('Ascending'),
});
export type Sorting = z.infer<typeof sortingSchema>;

export const columnSchema = z.object({
  columnKey: z.string(),
  displayName: z.string(),
  description: z.string().nullable().default(null),
  order: z.number().int(),
  type: z.enum(COLUMN_TYPES),
});
export type Column = z.infer<typeof columnSchema>;

export const pageRequestSchema = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(1_000).default(LIMITS.defaultPageSize),
  filterGroups: z.array(filterGroupSchema).max(50).default([]),
  sorting: z.array(sortingSchema).max(20).default([]),
  forDisplay: z.boolean().default(false),
});
export type PageRequest = z.infer<typeof pageRequestSchema>;

export const tableTypeSchema = z.enum(TABLE_TYPES);

/** A table named by type and id: the REST path /api/tables/{type}/{id}, the tRPC input's type and id. */
export const tableRefSchema = z.object({ type: tableTypeSchema, id: z.string().min(1).max(100) });

/**
 * GET /api/tables (query) and tables.list: which kinds of table to list (`types=StaticTable&types=ModelVersion`
 * in a query string), all by default. `flatten` is accepted as the spec sends it; lists are always flat.
 */
export const tableListSchema = z.object({
  // One type in a query string arrives as text, several as a list.
  types: z
    .preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(tableTypeSchema))
    .default([...TABLE_TYPES]),
  flatten: z
    .union([
      z.boolean(),
      z
        .string()
        .max(20)
        .transform((value) => value !== 'false'),
    ])
    .default(true),
});
export type TableListRequest = z.output<typeof tableListSchema>;

/**
 * A page of rows (POST .../data/infinite-scroll). The answer carries the real `count` and
 * `totalPages` unless `withCount: false` asks not to wait for them (the grid counts with its own call).
 */
export const tablePageRequestSchema = pageRequestSchema.extend({ withCount: z.boolean().default(true) });
export type TablePageRequest = z.output<typeof tablePageRequestSchema>;
export const tablePageInputSchema = tableRefSchema.extend(tablePageRequestSchema.shape);

/** The rows a filter lets through (POST .../data/count). */
export const tableCountRequestSchema = pageRequestSchema.pick({ filterGroups: true });
export type TableCountRequest = z.output<typeof tableCountRequestSchema>;
export const tableCountInputSchema = tableRefSchema.extend(tableCountRequestSchema.shape);
export const tableCountSchema = z.object({ totalCount: z.number().int() });

/** A row as the tables API answers it: column keys to JSON values (big integers as exact text). */
export const tableRowSchema = z.record(z.string(), z.unknown());

export const EXPORT_FORMAT_NAMES = ['csv', 'parquet'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMAT_NAMES).default('csv');

/** A part of a table with data of its own, e.g. a model version's pivot. */
export const tableResourceSchema = z.object({ resourceKey: z.string(), name: z.string() });
export type TableResource = z.infer<typeof tableResourceSchema>;

/** The spec's table summary: a dataset, a static table or a model version. */
export const tableSummarySchema = z.object({
  id: z.string(),
  type: tableTypeSchema,
  groupId: z.string(),
  groupName: z.string(),
  name: z.string(),
  columns: z.array(columnSchema),
  status: z.string(),
  resources: z.array(tableResourceSchema).optional(),
});
export type TableSummary = z.infer<typeof tableSummarySchema>;

/** Paged responses of the spec. */
export interface Paged<T> {
  page: number;
  pageSize: number;
  count: number;
  totalPages: number;
  hasMore: boolean;
  data: T[];
}

const COMPARISONS: FilterOperator[] = ['GreaterThan', 'LessThan', 'GreaterThanOrEquals', 'LessThanOrEquals'];

/** Which operators the filter popup offers for a column type. */
export const OPERATORS_BY_TYPE: Record<ColumnType, readonly FilterOperator[]> = {
  Text: ['Equals', 'NotEquals', 'Contains', 'NotContains', ...COMPARISONS, 'Exists', 'Empty'],
  Number: ['Equals', 'NotEquals', 'Between', ...COMPARISONS, 'Exists', 'Empty'],
  Date: ['Equals', 'NotEquals', 'Between', ...COMPARISONS, 'Exists', 'Empty'],
  DateTime: ['Equals', 'NotEquals', 'Between', ...COMPARISONS, 'Exists', 'Empty'],
  Boolean: ['Equals', 'NotEquals', 'Exists', 'Empty'],
  Array: ['Contains', 'NotContains', 'Exists', 'Empty'],
  Json: ['Contains', 'NotContains', 'Exists', 'Empty'],
};

export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  Equals: 'equals',
  NotEquals: 'does not equal',
  Between: 'is between',
  GreaterThan: 'is greater than',
  LessThan: 'is less than',
  GreaterThanOrEquals: 'is at least',
  LessThanOrEquals: 'is at most',
  Contains: 'contains',
  NotContains: 'does not contain',
  Exists: 'has a value',
  Empty: 'is empty',
};

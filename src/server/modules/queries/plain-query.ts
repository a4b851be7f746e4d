/**
 * The plain-data query a question becomes (by the grammar or by the optional language model): one
 * table, what to count or add up, how to group, which rows, in what order, how many. JSON-safe, so
 * it is stored with a chat result and run again for the export. Never SQL: it compiles through the
 * engine (compile.ts), which binds every value and quotes every name.
 */
import { z } from 'zod';
import { PIVOT_AGGREGATIONS, PIVOT_TIME_GRAINS } from '../../../shared/pivots';
import { FILTER_OPERATORS, SORT_DIRECTIONS, TABLE_TYPES } from '../../../shared/tables';

const name = z.string().min(1).max(300);
const filterValue = z
  .union([z.string().max(1000), z.number(), z.boolean()])
  .nullable()
  .optional();

export const queryMeasureSchema = z.object({
  function: z.enum(PIVOT_AGGREGATIONS),
  /** null: count the rows themselves (Count only). */
  column: name.nullable(),
});

export const queryGroupSchema = z.object({
  column: name,
  /** Date and DateTime columns: group by this grain; null groups by the exact value. */
  grain: z.enum(PIVOT_TIME_GRAINS).nullable().default(null),
});

export const queryFilterSchema = z.object({
  column: name,
  operator: z.enum(FILTER_OPERATORS),
  value: filterValue,
  value2: filterValue,
});

export const querySortSchema = z.object({
  /** 'measure': by measures[index]; 'group': by the first group's key; 'column': list rows by a column. */
  by: z.enum(['measure', 'group', 'column']),
  index: z.number().int().min(0).max(10).default(0),
  column: name.nullable().default(null),
  direction: z.enum(SORT_DIRECTIONS),
});

/** The query with its table and columns named as the catalogue names them (keys or display names). */
export const queryBodySchema = z.object({
  measures: z.array(queryMeasureSchema).max(5).default([]),
  groupBy: z.array(queryGroupSchema).max(3).default([]),
  filters: z.array(queryFilterSchema).max(20).default([]),
  sort: querySortSchema.nullable().default(null),
  limit: z.number().int().min(1).max(100_000).nullable().default(null),
  /** Without measures: the rows themselves, these columns (empty: all). */
  select: z.array(name).max(50).default([]),
});

export const plainQuerySchema = queryBodySchema.extend({
  version: z.literal(1),
  table: z.object({ type: z.enum(TABLE_TYPES), id: z.string().min(1).max(100), name: z.string().max(300) }),
  /** How the question was read, as the answer said it. */
  reading: z.string().max(2000),
});

export type QueryMeasure = z.infer<typeof queryMeasureSchema>;
export type QueryGroup = z.infer<typeof queryGroupSchema>;
export type QueryFilter = z.infer<typeof queryFilterSchema>;
export type QuerySort = z.infer<typeof querySortSchema>;
export type QueryBody = z.output<typeof queryBodySchema>;
export type PlainQuery = z.output<typeof plainQuerySchema>;

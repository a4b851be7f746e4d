/**
 * Shapes every REST call shares: the error answer, path ids and the spec's paged answer. The REST
 * paths' own schemas live with their entities (accounts.ts, tables.ts, ...); the OpenAPI document at
 * /api/openapi.json is generated from them.
 */
import { z } from 'zod';
import { idSchema } from './accounts';

/** Every 4xx and 5xx answer of the REST API. */
export const apiErrorSchema = z.object({ message: z.string() });
export type ApiError = z.infer<typeof apiErrorSchema>;

/** A path holding one entity id, e.g. /api/models/{id}. */
export const idParamsSchema = z.object({ id: idSchema });

/** tRPC calls on one entity: its id, with nothing else. */
export const byIdSchema = idParamsSchema;

/** The spec's paged answer: `{ page, pageSize, count, totalPages, hasMore, data }`. */
export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    page: z.number().int(),
    pageSize: z.number().int(),
    /** Rows in all pages; -1 when the caller asked for no count (withCount: false). */
    count: z.number().int(),
    totalPages: z.number().int(),
    hasMore: z.boolean(),
    data: z.array(item),
  });
}

/**
 * A whole number that may come as text (a query string: `?page=2`) or as a number (JSON, tRPC),
 * then held to `schema`'s bounds.
 */
export function wholeNumber(schema: z.ZodNumber) {
  return z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,15}$/, 'Enter a whole number.')
        .transform(Number),
    ])
    .pipe(schema);
}

/** Answers of calls that only say they were done. */
export const messageAnswerSchema = z.object({ message: z.string() });

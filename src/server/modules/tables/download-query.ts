import { z } from 'zod';
import {
  buildPageStatement,
  duckdbDialect,
  isModelError,
  renderSelect,
  type CompiledQuery,
  type TableQuery,
} from '../../../engine';
import { LIMITS } from '../../../shared/limits';
import { exportFormatSchema, pageRequestSchema } from '../../../shared/tables';
import { badInput } from '../../errors';
import { jsonTextTooDeep, tooDeepMessage } from '../../json-depth';
import { engineColumns, requestSorting, unsortedStatement, type TableRelation } from './relations';
import { uniqueHeaders } from './unique-headers';

/**
 * The grid's filters and sort for a download. A form post or a link carries them as JSON text (the
 * browser streams the file only from a plain navigation), a JSON body as objects: both are read.
 */
const jsonText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    // JSON text is held to the depth limit of JSON bodies (http/json-body.ts).
    if (jsonTextTooDeep(value, LIMITS.jsonMaxDepth)) {
      ctx.addIssue({ code: 'custom', message: tooDeepMessage(LIMITS.jsonMaxDepth) });
      return z.NEVER;
    }
    try {
      return value.trim() === '' ? undefined : (JSON.parse(value) as unknown);
    } catch {
      return value;
    }
  }, schema);

export const downloadRequestSchema = z.object({
  filterGroups: jsonText(pageRequestSchema.shape.filterGroups),
  sorting: jsonText(pageRequestSchema.shape.sorting),
});
export type DownloadRequest = z.output<typeof downloadRequestSchema>;

/** A download's query string or form: the file format and the grid's filters and sort. */
export const tableDownloadSchema = downloadRequestSchema.extend({ format: exportFormatSchema });

/** More rows than any table holds: a download's "no limit" for the relation's own unsorted statement. */
const ALL_ROWS = 2 ** 52;

/**
 * Every row of the relation that passes the filters, in the grid's order, each column once under
 * its display name (made unique); the row key is left out. The grid's order is decided as for a
 * page (relations.ts): the request's sort, else the relation's own (a model's sort), else the
 * relation's unsorted order (a model's base-table order) or the engine's. It is the page statement
 * without its LIMIT, so the download and the grid can never disagree on rows or order.
 */
export function downloadQuery(relation: TableRelation, { filterGroups, sorting }: DownloadRequest): CompiledQuery {
  if (relation.columns.length === 0) throw badInput('This table has no columns to download.');
  const headers = uniqueHeaders(relation.columns.map((c) => c.displayName));
  const names = new Map(relation.columns.map((c, i) => [c.columnKey, headers[i]!]));
  const query: TableQuery = {
    source: relation.source,
    columns: engineColumns(relation),
    rowKey: relation.rowKey,
    select: relation.columns.map((c) => c.columnKey),
    filterGroups,
    sorting: requestSorting(relation, sorting),
    // The first page of one row is always the plain statement (no keys-first subquery) to unbound.
    page: { page: 1, pageSize: 1 },
  };
  try {
    const unsorted = unsortedStatement(relation, query, { offset: 0, limit: ALL_ROWS });
    if (unsorted) return renamed(unsorted, relation, names);
    const statement = buildPageStatement(query, duckdbDialect);
    const items = statement.items.flatMap((item) => {
      const key = item.expr.kind === 'column' ? item.expr.name : null;
      const name = key === null ? undefined : names.get(key);
      return name === undefined ? [] : [{ ...item, alias: name }];
    });
    return renderSelect({ ...statement, items, limit: null, offset: null }, duckdbDialect);
  } catch (error) {
    if (isModelError(error)) throw badInput(error.message);
    throw error;
  }
}

/** The relation's columns of `ordered` under their headers; a projection, so the rows keep their order. */
function renamed(ordered: CompiledQuery, relation: TableRelation, names: Map<string, string>): CompiledQuery {
  const q = (name: string) => duckdbDialect.quoteIdentifier(name);
  const items = relation.columns.map((c) => `${q(c.columnKey)} AS ${q(names.get(c.columnKey)!)}`);
  return { sql: `SELECT ${items.join(', ')} FROM (${ordered.sql}) AS ordered`, parameters: ordered.parameters };
}

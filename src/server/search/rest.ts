import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  searchAccountParamsSchema,
  searchExclusionInputSchema,
  searchExclusionSchema,
  searchIndexAccountSchema,
  searchQuerySchema,
  searchResponseSchema,
} from '../../shared/search';
import type { Deps } from '../context';
import { endpoint } from '../http/endpoint';
import type { Services } from '../services';

const FORBIDDEN = [403] as const;

/** GET /api/search (spec: Search response) and the admin's search index paths, over the service. */
export function registerSearchRest(app: FastifyInstance, deps: Deps, { search }: Services): void {
  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/search',
      summary: "Searches every indexed value of the caller's current account",
      description:
        'Words match words starting with them (as you type); case and diacritics are ignored. Groups are tables, ' +
        '`value` `<integration>.<schema>.<table>`, with matching rows per column and a few sample hits with one full ' +
        'row each. `indexing` says how far the index lags behind the latest changes.',
      tag: 'Search',
      access: 'account',
      query: searchQuerySchema,
      answers: { 200: { description: 'The hits, grouped by table.', json: searchResponseSchema } },
    },
    async ({ ctx, query }) => search.search(ctx, query.query),
  );

  const tag = 'Admin';
  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/admin/search-index',
      summary: "Each account's search index: size, documents, last indexed, lag (global admins)",
      tag,
      access: 'user',
      answers: { 200: { description: 'One row per account.', json: z.array(searchIndexAccountSchema) } },
      errors: FORBIDDEN,
    },
    async ({ ctx }) => search.listIndexes(ctx),
  );
  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/admin/search-index/{accountId}/rebuild',
      summary: 'Indexes every table of the account again, in the background (global admins)',
      tag,
      access: 'user',
      params: searchAccountParamsSchema,
      answers: { 200: { description: 'The account’s index, its tables queued.', json: searchIndexAccountSchema } },
      errors: FORBIDDEN,
    },
    async ({ ctx, params }) => search.rebuild(ctx, params.accountId),
  );
  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/admin/search-index/{accountId}/exclusions',
      summary: 'Tables and columns of the account kept out of search (global admins)',
      tag,
      access: 'user',
      params: searchAccountParamsSchema,
      answers: { 200: { description: 'The exclusions.', json: z.array(searchExclusionSchema) } },
      errors: FORBIDDEN,
    },
    async ({ ctx, params }) => search.exclusions(ctx, params.accountId),
  );
  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/admin/search-index/exclusions',
      summary: 'Keeps a table (columnKey null) or a column out of search (global admins)',
      tag,
      access: 'user',
      body: searchExclusionInputSchema,
      answers: { 200: { description: 'The account’s exclusions.', json: z.array(searchExclusionSchema) } },
      errors: FORBIDDEN,
    },
    async ({ ctx, body }) => search.exclude(ctx, body),
  );
  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/admin/search-index/exclusions',
      summary: 'Lets an excluded table or column be searched again (global admins)',
      tag,
      access: 'user',
      body: searchExclusionInputSchema,
      answers: { 200: { description: 'The account’s exclusions.', json: z.array(searchExclusionSchema) } },
      errors: FORBIDDEN,
    },
    async ({ ctx, body }) => search.include(ctx, body),
  );
}

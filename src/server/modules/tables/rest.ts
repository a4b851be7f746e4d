import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { pagedSchema } from '../../../shared/api';
import {
  tableCountRequestSchema,
  tableCountSchema,
  tableListSchema,
  tablePageRequestSchema,
  tableRefSchema,
  tableRowSchema,
  tableSummarySchema,
} from '../../../shared/tables';
import type { Deps } from '../../context';
import { attachment } from '../../http/attachment';
import { endpoint, type AnswerDoc } from '../../http/endpoint';
import { allowFramingBySelf } from '../../http/security-headers';
import type { Services } from '../../services';
import { EXPORT_FORMATS } from '../../warehouse/export-table';
import { tableDownloadSchema } from './download-query';

/** Filters and sort of a download form: far more than any grid sends, small enough to parse at once. */
const FORM_BODY_LIMIT = 1024 * 1024;

const tag = 'Tables';

/** A download's answer: the file, CSV or Parquet. */
export const TABLE_FILE: Record<number, AnswerDoc> = {
  200: {
    description: 'The rows as a file (Content-Disposition names it).',
    file: ['text/csv', 'application/vnd.apache.parquet'],
  },
};

export function registerTablesRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const tables = services.tables;

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/tables',
      summary: 'Every table of the account: static tables, integration datasets and active model versions',
      tag,
      access: 'account',
      query: tableListSchema,
      answers: { 200: { description: 'The tables.', json: z.array(tableSummarySchema) } },
    },
    async ({ ctx, query }) => tables.list(ctx, query),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/tables/{type}/{id}',
      summary: 'One table with its columns',
      tag,
      access: 'account',
      params: tableRefSchema,
      query: tableListSchema.pick({ flatten: true }),
      answers: { 200: { description: 'The table.', json: tableSummarySchema } },
    },
    async ({ ctx, params }) => tables.get(ctx, params.type, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/tables/{type}/{id}/data/count',
      summary: 'How many rows pass the filters',
      tag,
      access: 'account',
      params: tableRefSchema,
      body: tableCountRequestSchema,
      answers: { 200: { description: 'The count.', json: tableCountSchema } },
    },
    async ({ ctx, params, body }) => tables.count(ctx, params.type, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/tables/{type}/{id}/data/infinite-scroll',
      summary: 'A page of rows, filtered and sorted, with the count of all pages',
      description:
        'count and totalPages are the real figures unless withCount is false; then they are -1 and hasMore says whether the page came back full.',
      tag,
      access: 'account',
      params: tableRefSchema,
      body: tablePageRequestSchema,
      answers: { 200: { description: 'The page.', json: pagedSchema(tableRowSchema) } },
    },
    async ({ ctx, params, body }) => tables.page(ctx, params.type, params.id, body),
  );

  /** Sends the table's file; the grid's filters and sort come as JSON text (form, query) or objects (JSON). */
  const sendDownload = async ({
    ctx,
    params,
    request,
    reply,
  }: {
    ctx: Parameters<typeof tables.download>[0];
    params: z.output<typeof tableRefSchema>;
    request: z.output<typeof tableDownloadSchema>;
    reply: FastifyReply;
  }) => {
    const { format, ...query } = request;
    const file = await tables.download(ctx, params.type, params.id, format, query);
    return reply
      .header('content-type', EXPORT_FORMATS[file.format].contentType)
      .header('content-disposition', attachment(file.fileName))
      .send(file.stream);
  };

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/tables/{type}/{id}/download',
      summary: "Download the table's rows with the grid's filters and sort (JSON text)",
      tag,
      access: 'account',
      params: tableRefSchema,
      query: tableDownloadSchema,
      answers: TABLE_FILE,
    },
    async ({ ctx, params, query, reply }) => sendDownload({ ctx, params, request: query, reply }),
  );

  // The grid downloads with a plain form post, so the browser streams the file to disk; the form's
  // body parser is scoped to this route.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    endpoint(
      scope,
      deps,
      {
        method: 'POST',
        path: '/api/tables/{type}/{id}/download',
        summary: "Download the table's rows: the grid's form post (or JSON) with its filters and sort",
        tag,
        access: 'account',
        params: tableRefSchema,
        body: tableDownloadSchema,
        formBody: true,
        answers: TABLE_FILE,
        // The answer lands in a frame of the grid, which reads an error from it: any answer, errors too.
        options: { onRequest: async (_req, reply) => allowFramingBySelf(reply) },
      },
      async ({ ctx, params, body, reply }) => sendDownload({ ctx, params, request: body, reply }),
    );
  });
}

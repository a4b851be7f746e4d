import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParamsSchema, pagedSchema } from '../../../shared/api';
import {
  createStaticTableSchema,
  csvImportAnswerSchema,
  csvUploadPartsSchema,
  renameStaticTableSchema,
  replaceDataSchema,
  staticQuerySchema,
  staticRowsSchema,
  staticTableChangedSchema,
  staticTableChangesSchema,
  staticTableListSchema,
  staticTableRenamedSchema,
  staticTableSchema,
  staticTableSummarySchema,
} from '../../../shared/static-tables';
import type { Deps } from '../../context';
import { newId } from '../../db/ids';
import { AppError, badInput } from '../../errors';
import { endpoint, type AnswerDoc } from '../../http/endpoint';
import { saveStream } from '../../http/save-stream';
import { requireWriter } from '../accounts/access';
import type { Services } from '../../services';
import { sizeText } from '../../warehouse/csv-file';
import { accountUploadsDir } from '../../warehouse/account-paths';

const UPLOAD_FAILED = 'Failed to upload file';

/** Saves the multipart `file` (text/csv only) to a scratch file and returns its path. */
async function receiveCsv(req: FastifyRequest, deps: Deps, accountId: string): Promise<string> {
  if (!req.isMultipart()) throw badInput(`${UPLOAD_FAILED}: send the file as multipart/form-data.`);
  const file = await req.file({ limits: { fileSize: deps.config.uploadMaxBytes, files: 1 } });
  if (!file) throw badInput(`${UPLOAD_FAILED}: no file was sent.`);
  if (file.mimetype !== 'text/csv') {
    file.file.resume();
    throw badInput(`${UPLOAD_FAILED}: only CSV files (text/csv) are accepted.`);
  }
  const dir = accountUploadsDir(deps.config.dataDir, accountId);
  await fs.promises.mkdir(dir, { recursive: true });
  const target = path.join(dir, `${newId()}.csv`);
  try {
    await saveStream(file.file, target);
  } catch (error) {
    // A cut-off or malformed body (answered 400 by the error handler) leaves no partial file behind.
    await fs.promises.rm(target, { force: true });
    throw error;
  }
  if (file.file.truncated) {
    await fs.promises.rm(target, { force: true });
    throw new AppError(
      'PayloadTooLarge',
      `${UPLOAD_FAILED}: the file is over the limit of ${sizeText(deps.config.uploadMaxBytes)}.`,
    );
  }
  return target;
}

const tag = 'Static tables';
const TABLE: Record<number, AnswerDoc> = {
  200: { description: 'The table with its columns.', json: staticTableSchema },
};

export function registerStaticTablesRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const tables = services.staticTables;

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/static-tables',
      summary: "The account's static tables whose name contains the query, by name, one page",
      tag,
      access: 'account',
      query: staticTableListSchema,
      answers: { 200: { description: 'The page.', json: pagedSchema(staticTableSummarySchema) } },
    },
    async ({ ctx, query }) => tables.list(ctx, query),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/static-tables',
      summary: 'Create a static table with columns and rows',
      tag,
      access: 'account',
      body: createStaticTableSchema,
      answers: { 201: { description: 'The table with its rows.', json: staticTableSchema } },
    },
    async ({ ctx, body }) => {
      const { id } = await tables.create(ctx, body);
      return tables.get(ctx, id, { withRows: true });
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/static-tables/{id}',
      summary: 'A static table with its columns and every row',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: TABLE,
    },
    async ({ ctx, params }) => tables.get(ctx, params.id, { withRows: true }),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/static-tables/{id}',
      summary: 'Rename a static table',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: renameStaticTableSchema,
      answers: { 200: { description: 'The new name.', json: staticTableRenamedSchema } },
    },
    async ({ ctx, params, body }) => tables.rename(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/static-tables/{id}',
      summary: 'Delete a static table',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 204: { description: 'Deleted.' } },
    },
    async ({ ctx, params }) => tables.remove(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/static-tables/{id}/upload',
      summary: "Replace the table's columns and rows with a CSV file's",
      description:
        'Columns whose header matches an earlier column keep its key; the answer names date formats and removed columns.',
      tag,
      access: 'account',
      params: idParamsSchema,
      multipart: csvUploadPartsSchema,
      errors: [413],
      answers: { 200: { description: 'What the import did.', json: csvImportAnswerSchema } },
    },
    async ({ ctx, params, req }) => {
      await tables.get(ctx, params.id);
      // Refused before the file is received: a read_only member's upload is never written to disk.
      requireWriter(ctx);
      return tables.importCsv(ctx, params.id, await receiveCsv(req, deps, ctx.accountId));
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/static-tables/{id}/query',
      summary: 'The rows that match the filters',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: staticQuerySchema,
      answers: { 200: { description: 'The rows.', json: staticRowsSchema } },
    },
    async ({ ctx, params, body }) => tables.query(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/static-tables/{id}/data',
      summary: "Replace the table's columns and rows",
      tag,
      access: 'account',
      params: idParamsSchema,
      body: replaceDataSchema,
      answers: TABLE,
    },
    async ({ ctx, params, body }) => tables.replaceData(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/static-tables/{id}/changes',
      summary: "The editor's cell edits and row and column changes, applied together",
      tag,
      access: 'account',
      params: idParamsSchema,
      body: staticTableChangesSchema,
      answers: { 200: { description: 'The columns and row count after the changes.', json: staticTableChangedSchema } },
    },
    async ({ ctx, params, body }) => tables.change(ctx, params.id, body),
  );
}

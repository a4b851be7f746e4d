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
import {
  IMPORT_PREVIEW,
  importModeQuerySchema,
  importNewQuerySchema,
  importPreviewSchema,
  restoreKeptSchema,
  restoredSchema,
} from '../../../shared/static-table-import';
import {
  columnKeyParamsSchema,
  columnTypeChangeSchema,
  columnTypeChangedSchema,
  columnTypePreviewQuerySchema,
  columnTypePreviewSchema,
} from '../../../shared/static-column-types';
import type { Deps } from '../../context';
import { tableNameOfFile } from './service';
import { newId } from '../../db/ids';
import { AppError, badInput } from '../../errors';
import { endpoint, type AnswerDoc } from '../../http/endpoint';
import { saveStream } from '../../http/save-stream';
import { requireWriter } from '../accounts/access';
import type { Services } from '../../services';
import { sizeText } from '../../warehouse/csv-file';
import { accountUploadsDir } from '../../warehouse/account-paths';

const UPLOAD_FAILED = 'Failed to upload file';

/** The multipart `file` part, refused unless it is text/csv. */
async function csvPart(req: FastifyRequest, deps: Deps) {
  if (!req.isMultipart()) throw badInput(`${UPLOAD_FAILED}: send the file as multipart/form-data.`);
  const file = await req.file({ limits: { fileSize: deps.config.uploadMaxBytes, files: 1 } });
  if (!file) throw badInput(`${UPLOAD_FAILED}: no file was sent.`);
  if (file.mimetype !== 'text/csv') {
    file.file.resume();
    throw badInput(`${UPLOAD_FAILED}: only CSV files (text/csv) are accepted.`);
  }
  return file;
}

/** The head of the multipart `file` (IMPORT_PREVIEW.headBytes at most) as text; the rest is read and dropped. */
async function receiveCsvHead(req: FastifyRequest, deps: Deps): Promise<{ text: string; truncated: boolean }> {
  const file = await csvPart(req, deps);
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  for await (const chunk of file.file as AsyncIterable<Buffer>) {
    if (bytes >= IMPORT_PREVIEW.headBytes) {
      truncated = true;
      continue;
    }
    chunks.push(chunk);
    bytes += chunk.length;
  }
  const head = Buffer.concat(chunks);
  if (head.length > IMPORT_PREVIEW.headBytes) truncated = true;
  return {
    text: head.subarray(0, IMPORT_PREVIEW.headBytes).toString('utf8'),
    truncated: truncated || file.file.truncated,
  };
}

/** Saves the multipart `file` (text/csv only) to a scratch file and returns its path and name. */
async function receiveCsv(req: FastifyRequest, deps: Deps, accountId: string): Promise<{ path: string; name: string }> {
  const file = await csvPart(req, deps);
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
  return { path: target, name: file.filename };
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
      summary: 'Import a CSV file into the table: replace its columns and rows (default) or append its rows',
      description:
        'mode=Replace: columns whose header matches an earlier column keep its key; the answer names date formats ' +
        'and removed columns. mode=Append: rows go below, columns matched by name (case and surrounding spaces ' +
        'ignored), others added. Both keep the previous table until the next change: POST .../restore-kept with ' +
        "the answer's keptToken brings it back.",
      tag,
      access: 'account',
      params: idParamsSchema,
      query: importModeQuerySchema,
      multipart: csvUploadPartsSchema,
      errors: [413],
      answers: { 200: { description: 'What the import did.', json: csvImportAnswerSchema } },
    },
    async ({ ctx, params, query, req }) => {
      await tables.get(ctx, params.id);
      // Refused before the file is received: a read_only member's upload is never written to disk.
      requireWriter(ctx);
      const file = await receiveCsv(req, deps, ctx.accountId);
      return tables.importCsv(ctx, params.id, file.path, query.mode, query.progress);
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/static-tables/upload',
      summary: 'Create a static table from a CSV file',
      description: "The table is named by `name`, or by the file's name without its extension.",
      tag,
      access: 'account',
      query: importNewQuerySchema,
      multipart: csvUploadPartsSchema,
      errors: [413],
      answers: { 201: { description: 'What the import did; tableId is the new table.', json: csvImportAnswerSchema } },
    },
    async ({ ctx, query, req, reply }) => {
      requireWriter(ctx);
      const file = await receiveCsv(req, deps, ctx.accountId);
      const answer = await tables.importAsNewTable(
        ctx,
        query.name || tableNameOfFile(file.name),
        file.path,
        query.progress,
      );
      void reply.code(201);
      return answer;
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/static-tables/{id}/upload/preview',
      summary: "A CSV file's first rows and detected types, and what importing it would do to the table",
      description: `Only the first ${IMPORT_PREVIEW.headBytes / 1024} KB of the file are read.`,
      tag,
      access: 'account',
      params: idParamsSchema,
      multipart: csvUploadPartsSchema,
      answers: { 200: { description: 'The preview.', json: importPreviewSchema } },
    },
    async ({ ctx, params, req }) => {
      await tables.get(ctx, params.id);
      requireWriter(ctx);
      const head = await receiveCsvHead(req, deps);
      return tables.previewImport(ctx, params.id, { head: head.text, truncated: head.truncated });
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/static-tables/{id}/restore-kept',
      summary: 'Undo (or redo) an import or a type change: swap the table with the copy it kept',
      description: 'Refused with 409 once another change to the table dropped the kept copy.',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: restoreKeptSchema,
      errors: [409],
      answers: {
        200: { description: 'Restored; the copy now kept is the table before the restore.', json: restoredSchema },
      },
    },
    async ({ ctx, params, body }) => tables.restoreKept(ctx, params.id, body.token),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/static-tables/{id}/columns/{columnKey}/type-preview',
      summary: "How many of a column's values would not convert to another type, with examples",
      tag,
      access: 'account',
      params: columnKeyParamsSchema,
      query: columnTypePreviewQuerySchema,
      answers: { 200: { description: 'The counts.', json: columnTypePreviewSchema } },
    },
    async ({ ctx, params, query }) => tables.previewColumnType(ctx, params.id, params.columnKey, query.type),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/static-tables/{id}/columns/{columnKey}/type',
      summary: "Change a column's type",
      description:
        'Values that do not convert become empty only with clearUnconvertible: true (otherwise 400). ' +
        'The previous table is kept until the next change (POST .../restore-kept undoes).',
      tag,
      access: 'account',
      params: columnKeyParamsSchema,
      body: columnTypeChangeSchema,
      answers: { 200: { description: 'Changed.', json: columnTypeChangedSchema } },
    },
    async ({ ctx, params, body }) => tables.changeColumnType(ctx, params.id, params.columnKey, body),
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

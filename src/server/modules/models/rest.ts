import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idParamsSchema } from '../../../shared/api';
import {
  createModelSchema,
  duplicateModelSchema,
  renameModelSchema,
  validateFunctionSchema,
} from '../../../shared/models';
import {
  formulaFunctionSchema,
  modelGetQuerySchema,
  modelListItemSchema,
  modelSchema,
  modelVersionSummarySchema,
  pivotExportQuerySchema,
  pivotPageRequestSchema,
  pivotPageSchema,
  pivotParamsSchema,
  validateFunctionResultSchema,
  versionIdSchema,
} from '../../../shared/models-api';
import type { Deps } from '../../context';
import { attachment } from '../../http/attachment';
import { endpoint, type AnswerDoc } from '../../http/endpoint';
import type { Services } from '../../services';
import { EXPORT_FORMATS } from '../../warehouse/export-table';
import { tableDownloadSchema } from '../tables/download-query';
import { TABLE_FILE } from '../tables/rest';
import { registerModelDraftRest } from './draft-rest';
import { PIVOT_EXPORT_FORMATS, pivotCsv, pivotXlsx } from './pivot-export';

const tag = 'Models';
const MODEL: Record<number, AnswerDoc> = { 200: { description: 'The model as its page shows it.', json: modelSchema } };
const CREATED: Record<number, AnswerDoc> = { 201: { description: 'The new model.', json: modelSchema } };
/** Paths whose {id} is a version's id (the spec's {versionId}). */
const VERSION_IN_ID = 'The path’s id is the version’s id.';

/** The spec's model calls (data-areas.md §7), each a thin adapter over the models service. */
export function registerModelsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const models = services.models;

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/models',
      summary: 'The models of the account',
      tag,
      access: 'account',
      answers: { 200: { description: 'The models, by name.', json: z.array(modelListItemSchema) } },
    },
    async ({ ctx }) => models.list(ctx),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/models',
      summary: 'Create a model',
      tag,
      access: 'account',
      body: createModelSchema,
      answers: CREATED,
    },
    async ({ ctx, body }) => models.create(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/models/functions',
      summary: 'The functions of the formula language',
      tag,
      access: 'account',
      answers: { 200: { description: 'The functions.', json: z.array(formulaFunctionSchema) } },
    },
    async () => models.functions(),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/models/{id}',
      summary: 'A model: its active version, or its draft with ?draft=true',
      tag,
      access: 'account',
      params: idParamsSchema,
      query: modelGetQuerySchema,
      answers: MODEL,
    },
    async ({ ctx, params, query }) => models.get(ctx, params.id, query),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/models/{id}',
      summary: 'Rename a model',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: renameModelSchema,
      answers: MODEL,
    },
    async ({ ctx, params, body }) => models.rename(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/models/{id}',
      summary: 'Delete a model and its versions',
      tag,
      access: 'account',
      params: idParamsSchema,
      errors: [409],
      answers: { 204: { description: 'Deleted.' } },
    },
    async ({ ctx, params }) => models.remove(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/models/{id}/versions',
      summary: 'The versions of a model',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 200: { description: 'Newest first.', json: z.array(modelVersionSummarySchema) } },
    },
    async ({ ctx, params }) => models.versions(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/models/versions/{versionId}',
      summary: 'A model as one of its versions shows it',
      tag,
      access: 'account',
      params: versionIdSchema,
      answers: MODEL,
    },
    async ({ ctx, params }) => models.getVersion(ctx, params.versionId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/models/versions/{versionId}/export',
      summary: "Download a version's rows: in the model's own sort, or with a grid's filters and sort (JSON text)",
      tag,
      access: 'account',
      params: versionIdSchema,
      query: tableDownloadSchema,
      answers: TABLE_FILE,
    },
    async ({ ctx, params, query, reply }) => {
      const { format, ...request } = query;
      const file = await services.tables.download(ctx, 'ModelVersion', params.versionId, format, request);
      return reply
        .header('content-type', EXPORT_FORMATS[file.format].contentType)
        .header('content-disposition', attachment(file.fileName))
        .send(file.stream);
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/models/{id}/export/pivot',
      summary: 'Download a pivot, whole, as CSV or XLSX',
      tag,
      access: 'account',
      params: idParamsSchema,
      query: pivotExportQuerySchema,
      answers: {
        200: {
          description: 'The pivot as a file.',
          file: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        },
      },
    },
    async ({ ctx, params, query, reply }) => {
      const file = await models.exportPivot(ctx, params.id, query);
      const body = file.format === 'xlsx' ? await pivotXlsx(file, file.sheetName) : pivotCsv(file);
      return reply
        .header('content-type', PIVOT_EXPORT_FORMATS[file.format].contentType)
        .header('content-disposition', attachment(file.fileName))
        .send(body);
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/tables/ModelVersion/{versionId}/resources/{pivotKey}/Pivot/data/infinite-scroll',
      summary: "A chunk of a pivot's rows with its layout",
      tag,
      access: 'account',
      params: pivotParamsSchema,
      body: pivotPageRequestSchema,
      answers: { 200: { description: 'The chunk.', json: pivotPageSchema } },
    },
    async ({ ctx, params, body }) => models.pivotPage(ctx, params.versionId, params.pivotKey, body),
  );

  registerModelDraftRest(app, deps, services);

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/models/{id}/duplicate',
      summary: 'A new model whose draft copies a version',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: duplicateModelSchema,
      answers: CREATED,
    },
    async ({ ctx, params, body }) => models.duplicate(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/models/{id}/validate-function',
      summary: "Check a formula against a version's columns",
      description: VERSION_IN_ID,
      tag,
      access: 'account',
      params: idParamsSchema,
      body: validateFunctionSchema,
      answers: { 200: { description: 'Whether it is valid, and where not.', json: validateFunctionResultSchema } },
    },
    async ({ ctx, params, body }) => models.validateFunction(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/models/{id}/set-active',
      summary: 'Make an earlier published version the one in use',
      description: VERSION_IN_ID,
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: MODEL,
    },
    async ({ ctx, params }) => models.setActive(ctx, params.id),
  );
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idParamsSchema } from '../../../shared/api';
import {
  addColumnSchema,
  filterGroupsInputSchema,
  joinsInputSchema,
  pivotsInputSchema,
  reorderColumnsSchema,
  sortInputSchema,
  updateColumnSchema,
} from '../../../shared/models';
import { modelColumnParamsSchema, modelSchema, modelSourceOptionSchema } from '../../../shared/models-api';
import type { Deps } from '../../context';
import { endpoint, type AnswerDoc } from '../../http/endpoint';
import type { Services } from '../../services';

const tag = 'Models';
const MODEL: Record<number, AnswerDoc> = { 200: { description: 'The model as its page shows it.', json: modelSchema } };

/**
 * The calls that change a model's draft (its sources, columns, joins, pivots, filters and sort),
 * publish or revert it, and step through its changes; registered by rest.ts among the other model
 * calls, so the API reference keeps their order.
 */
export function registerModelDraftRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const models = services.models;

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/models/{id}/sources',
      summary: 'The tables a column of this model may come from',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 200: { description: 'The sources with their columns.', json: z.array(modelSourceOptionSchema) } },
    },
    async ({ ctx, params }) => models.sourceOptions(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/models/{id}/columns',
      summary: 'Add a raw or function column to the draft',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: addColumnSchema,
      answers: { 201: { description: 'The draft with the column.', json: modelSchema } },
    },
    async ({ ctx, params, body }) => models.addColumn(ctx, params.id, body),
  );

  // The spec leaves the reorder path open: PUT on the collection with the keys in their new order.
  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/models/{id}/columns',
      summary: "Reorder the draft's columns",
      tag,
      access: 'account',
      params: idParamsSchema,
      body: reorderColumnsSchema,
      answers: MODEL,
    },
    async ({ ctx, params, body }) => models.reorderColumns(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/models/{id}/columns/{columnKey}',
      summary: 'Change a column of the draft',
      tag,
      access: 'account',
      params: modelColumnParamsSchema,
      body: updateColumnSchema,
      answers: MODEL,
    },
    async ({ ctx, params, body }) => models.updateColumn(ctx, params.id, params.columnKey, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/models/{id}/columns/{columnKey}',
      summary: 'Remove a column from the draft',
      tag,
      access: 'account',
      params: modelColumnParamsSchema,
      answers: MODEL,
    },
    async ({ ctx, params }) => models.deleteColumn(ctx, params.id, params.columnKey),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/models/{id}/joins',
      summary: "Save the draft's joins",
      tag,
      access: 'account',
      params: idParamsSchema,
      body: joinsInputSchema,
      answers: MODEL,
    },
    async ({ ctx, params, body }) => models.setJoins(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/models/{id}/pivots',
      summary: "Save the draft's pivots",
      tag,
      access: 'account',
      params: idParamsSchema,
      body: pivotsInputSchema,
      answers: MODEL,
    },
    async ({ ctx, params, body }) => models.setPivots(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/models/{id}/filter_groups',
      summary: "Save the draft's filter groups",
      tag,
      access: 'account',
      params: idParamsSchema,
      body: filterGroupsInputSchema,
      answers: MODEL,
    },
    async ({ ctx, params, body }) => models.setFilterGroups(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/models/{id}/sort',
      summary: "Save the draft's sort",
      tag,
      access: 'account',
      params: idParamsSchema,
      body: sortInputSchema,
      answers: MODEL,
    },
    async ({ ctx, params, body }) => models.setSort(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/models/{id}/publish',
      summary: 'Publish the draft: it becomes the active version',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: MODEL,
    },
    async ({ ctx, params }) => models.publish(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/models/{id}/revert',
      summary: 'Discard the draft',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: MODEL,
    },
    async ({ ctx, params }) => models.revert(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/models/{id}/undo',
      summary: 'Take back the last change to the draft (one step; undoing the change that made the draft discards it)',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: MODEL,
    },
    async ({ ctx, params }) => models.undo(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/models/{id}/redo',
      summary: 'Bring back the change Undo took back last',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: MODEL,
    },
    async ({ ctx, params }) => models.redo(ctx, params.id),
  );
}

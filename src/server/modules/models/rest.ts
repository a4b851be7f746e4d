import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../context';
import { bodyOf, inAccount } from '../../http/rest-context';
import type { Services } from '../../services';
import { EXPORT_FORMATS } from '../../warehouse/export-table';
import { attachment } from '../../http/attachment';
import { parseInput } from '../../validate';
import { tableDownloadSchema } from '../tables/download-query';
import { PIVOT_EXPORT_FORMATS, pivotCsv, pivotXlsx } from './pivot-export';

type IdParams = { Params: { id: string } };
type ColumnParams = { Params: { id: string; columnKey: string } };
type VersionParams = { Params: { versionId: string } };

/** The spec's model calls (data-areas.md §7), each a thin adapter over the models service. */
export function registerModelsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const models = services.models;

  app.get('/api/models', async (req) => models.list(await inAccount(req, deps)));
  app.post('/api/models', async (req, reply) =>
    reply.status(201).send(await models.create(await inAccount(req, deps), bodyOf(req))),
  );
  app.get('/api/models/functions', async (req) => {
    await inAccount(req, deps);
    return models.functions();
  });

  app.get<IdParams & { Querystring: { draft?: string } }>('/api/models/:id', async (req) =>
    models.get(await inAccount(req, deps), req.params.id, { draft: req.query.draft === 'true' }),
  );
  app.put<IdParams>('/api/models/:id', async (req) =>
    models.rename(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.delete<IdParams>('/api/models/:id', async (req, reply) => {
    await models.remove(await inAccount(req, deps), req.params.id);
    return reply.status(204).send();
  });

  app.get<IdParams>('/api/models/:id/versions', async (req) =>
    models.versions(await inAccount(req, deps), req.params.id),
  );
  app.get<VersionParams>('/api/models/versions/:versionId', async (req) =>
    models.getVersion(await inAccount(req, deps), req.params.versionId),
  );
  // The version's rows in the model's own sort, or with the filters and sort of a grid (JSON text).
  app.get<VersionParams & { Querystring: { format?: string; filterGroups?: string; sorting?: string } }>(
    '/api/models/versions/:versionId/export',
    async (req, reply) => {
      const ctx = await inAccount(req, deps);
      const { format, ...request } = parseInput(tableDownloadSchema, req.query);
      const file = await services.tables.download(ctx, 'ModelVersion', req.params.versionId, format, request);
      return reply
        .header('content-type', EXPORT_FORMATS[file.format].contentType)
        .header('content-disposition', attachment(file.fileName))
        .send(file.stream);
    },
  );
  app.get<IdParams & { Querystring: { pivotKey?: string; format?: string; versionId?: string } }>(
    '/api/models/:id/export/pivot',
    async (req, reply) => {
      const ctx = await inAccount(req, deps);
      const file = await models.exportPivot(ctx, req.params.id, req.query);
      const body = file.format === 'xlsx' ? await pivotXlsx(file, file.sheetName) : pivotCsv(file);
      return reply
        .header('content-type', PIVOT_EXPORT_FORMATS[file.format].contentType)
        .header('content-disposition', attachment(file.fileName))
        .send(body);
    },
  );
  app.post<{ Params: { versionId: string; pivotKey: string } }>(
    '/api/tables/ModelVersion/:versionId/resources/:pivotKey/Pivot/data/infinite-scroll',
    async (req) => models.pivotPage(await inAccount(req, deps), req.params.versionId, req.params.pivotKey, bodyOf(req)),
  );

  app.get<IdParams>('/api/models/:id/sources', async (req) =>
    models.sourceOptions(await inAccount(req, deps), req.params.id),
  );

  app.post<IdParams>('/api/models/:id/columns', async (req, reply) =>
    reply.status(201).send(await models.addColumn(await inAccount(req, deps), req.params.id, bodyOf(req))),
  );
  // The spec leaves the reorder path open: PUT on the collection with the keys in their new order.
  app.put<IdParams>('/api/models/:id/columns', async (req) =>
    models.reorderColumns(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.put<ColumnParams>('/api/models/:id/columns/:columnKey', async (req) =>
    models.updateColumn(await inAccount(req, deps), req.params.id, req.params.columnKey, bodyOf(req)),
  );
  app.delete<ColumnParams>('/api/models/:id/columns/:columnKey', async (req) =>
    models.deleteColumn(await inAccount(req, deps), req.params.id, req.params.columnKey),
  );

  app.put<IdParams>('/api/models/:id/joins', async (req) =>
    models.setJoins(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.put<IdParams>('/api/models/:id/pivots', async (req) =>
    models.setPivots(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.put<IdParams>('/api/models/:id/filter_groups', async (req) =>
    models.setFilterGroups(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.put<IdParams>('/api/models/:id/sort', async (req) =>
    models.setSort(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );

  app.post<IdParams>('/api/models/:id/publish', async (req) =>
    models.publish(await inAccount(req, deps), req.params.id),
  );
  app.post<IdParams>('/api/models/:id/revert', async (req) => models.revert(await inAccount(req, deps), req.params.id));
  app.post<IdParams>('/api/models/:id/duplicate', async (req, reply) =>
    reply.status(201).send(await models.duplicate(await inAccount(req, deps), req.params.id, bodyOf(req))),
  );
  app.post<{ Params: { id: string } }>('/api/models/:id/validate-function', async (req) =>
    models.validateFunction(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
  app.put<{ Params: { id: string } }>('/api/models/:id/set-active', async (req) =>
    models.setActive(await inAccount(req, deps), req.params.id),
  );
}

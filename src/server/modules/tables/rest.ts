import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../context';
import { bodyOf, inAccount } from '../../http/rest-context';
import type { Services } from '../../services';
import { EXPORT_FORMATS } from '../../warehouse/export-table';

type TableParams = { Params: { type: string; id: string } };

export function registerTablesRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const tables = services.tables;

  app.get<{ Querystring: { types?: string | string[]; flatten?: string } }>('/api/tables', async (req) => {
    const types = req.query.types === undefined ? undefined : [req.query.types].flat();
    return tables.list(await inAccount(req, deps), { types, flatten: req.query.flatten !== 'false' });
  });

  app.get<TableParams>('/api/tables/:type/:id', async (req) =>
    tables.get(await inAccount(req, deps), req.params.type, req.params.id),
  );

  app.post<TableParams>('/api/tables/:type/:id/data/count', async (req) =>
    tables.count(await inAccount(req, deps), req.params.type, req.params.id, bodyOf(req)),
  );

  app.post<TableParams>('/api/tables/:type/:id/data/infinite-scroll', async (req) =>
    tables.page(await inAccount(req, deps), req.params.type, req.params.id, bodyOf(req)),
  );

  app.get<TableParams & { Querystring: { format?: string } }>('/api/tables/:type/:id/download', async (req, reply) => {
    const file = await tables.download(await inAccount(req, deps), req.params.type, req.params.id, req.query.format);
    return reply
      .header('content-type', EXPORT_FORMATS[file.format].contentType)
      .header(
        'content-disposition',
        `attachment; filename="${file.fileName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      )
      .send(file.stream);
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context';
import { attachment } from '../../http/attachment';
import { bodyOf, inAccount } from '../../http/rest-context';
import { allowFramingBySelf } from '../../http/security-headers';
import type { Services } from '../../services';
import { EXPORT_FORMATS } from '../../warehouse/export-table';

type TableParams = { Params: { type: string; id: string } };

/** Filters and sort of a download form: far more than any grid sends, small enough to parse at once. */
const FORM_BODY_LIMIT = 1024 * 1024;

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

  /** Sends the table's file; the grid's filters and sort come as JSON text (form, query) or objects (JSON). */
  const sendDownload = async (
    req: FastifyRequest<TableParams>,
    reply: FastifyReply,
    fields: { format?: unknown; filterGroups?: unknown; sorting?: unknown },
  ) => {
    const { format, ...query } = fields;
    const file = await tables.download(await inAccount(req, deps), req.params.type, req.params.id, format, query);
    return reply
      .header('content-type', EXPORT_FORMATS[file.format].contentType)
      .header('content-disposition', attachment(file.fileName))
      .send(file.stream);
  };

  app.get<TableParams & { Querystring: { format?: string; filterGroups?: string; sorting?: string } }>(
    '/api/tables/:type/:id/download',
    (req, reply) => sendDownload(req, reply, req.query),
  );

  // The grid downloads with a plain form post, so the browser streams the file to disk; the form's
  // body parser is scoped to this route.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post<TableParams>('/api/tables/:type/:id/download', (req, reply) => {
      allowFramingBySelf(reply);
      const body = bodyOf(req);
      return sendDownload(req, reply, typeof body === 'object' && body !== null ? body : {});
    });
  });
}

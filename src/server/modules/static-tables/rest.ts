import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../context';
import { newId } from '../../db/ids';
import { AppError, badInput } from '../../errors';
import { bodyOf, inAccount } from '../../http/rest-context';
import { saveStream } from '../../http/save-stream';
import { requireWriter } from '../accounts/access';
import type { Services } from '../../services';
import { sizeText } from '../../warehouse/csv-file';
import { accountUploadsDir } from '../../warehouse/account-paths';

type IdParams = { Params: { id: string } };

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

export function registerStaticTablesRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const tables = services.staticTables;

  app.get<{ Querystring: { query?: string; page?: string; pageSize?: string } }>('/api/static-tables', async (req) =>
    tables.list(await inAccount(req, deps), {
      query: req.query.query,
      page: req.query.page ? Number(req.query.page) : undefined,
      pageSize: req.query.pageSize ? Number(req.query.pageSize) : undefined,
    }),
  );

  app.post('/api/static-tables', async (req, reply) => {
    const ctx = await inAccount(req, deps);
    const { id } = await tables.create(ctx, bodyOf(req));
    return reply.status(201).send(await tables.get(ctx, id, { withRows: true }));
  });

  app.get<IdParams>('/api/static-tables/:id', async (req) =>
    tables.get(await inAccount(req, deps), req.params.id, { withRows: true }),
  );

  app.put<IdParams>('/api/static-tables/:id', async (req) =>
    tables.rename(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );

  app.delete<IdParams>('/api/static-tables/:id', async (req, reply) => {
    await tables.remove(await inAccount(req, deps), req.params.id);
    return reply.status(204).send();
  });

  app.put<IdParams>('/api/static-tables/:id/upload', async (req) => {
    const ctx = await inAccount(req, deps);
    await tables.get(ctx, req.params.id);
    // Refused before the file is received: a read_only member's upload is never written to disk.
    requireWriter(ctx);
    return tables.importCsv(ctx, req.params.id, await receiveCsv(req, deps, ctx.accountId));
  });

  app.post<IdParams>('/api/static-tables/:id/query', async (req) =>
    tables.query(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );

  app.put<IdParams>('/api/static-tables/:id/data', async (req) =>
    tables.replaceData(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );

  app.post<IdParams>('/api/static-tables/:id/changes', async (req) =>
    tables.change(await inAccount(req, deps), req.params.id, bodyOf(req)),
  );
}

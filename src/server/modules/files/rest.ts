import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { idParamsSchema } from '../../../shared/api';
import {
  fileListQuerySchema,
  filePageSchema,
  publicFileParamsSchema,
  shareRequestSchema,
  sharedLinkSchema,
} from '../../../shared/files';
import type { Deps } from '../../context';
import { attachment } from '../../http/attachment';
import { endpoint, type AnswerDoc } from '../../http/endpoint';
import type { Services } from '../../services';
import type { FileDownload } from './service';

const tag = 'Files';

const FILE_ANSWER: Record<number, AnswerDoc> = {
  200: {
    description: 'The file (Content-Disposition names it; Content-Length gives its size).',
    file: ['application/octet-stream'],
  },
};

/** Streams the contents: constant memory whatever the size, the length known up front. */
function send(reply: FastifyReply, file: FileDownload): FastifyReply {
  const headers = reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', attachment(file.name))
    .header('cache-control', 'private, no-store');
  // A HEAD answers the headers only: the file is closed unread rather than read to nowhere.
  if (reply.request.method === 'HEAD') {
    file.stream.destroy();
    // An empty stream: Fastify's HEAD handling keeps Content-Length for a stream (not for nothing).
    return headers.send(Readable.from([]));
  }
  return headers.send(file.stream);
}

export function registerFilesRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const files = services.files;

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/files',
      summary: "A page of the account's files (reports), newest first",
      description: 'Filtered by origin (EntityType) and by a part of the name (Query); PageSize defaults to 25.',
      tag,
      access: 'account',
      query: fileListQuerySchema,
      answers: { 200: { description: 'The page.', json: filePageSchema } },
    },
    async ({ ctx, query }) =>
      files.list(ctx, {
        type: query.type,
        page: query.Page,
        pageSize: query.PageSize,
        entityType: query.EntityType,
        query: query.Query,
      }),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/files/{id}',
      summary: 'Delete a file and its public links',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 204: { description: 'Deleted.' } },
    },
    async ({ ctx, params }) => files.remove(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/files/{id}/download',
      summary: 'Download a file of the current account',
      tag,
      access: 'account',
      params: idParamsSchema,
      errors: [409],
      answers: FILE_ANSWER,
    },
    async ({ ctx, params, reply }) => send(reply, await files.download(ctx, params.id)),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      // The spec writes {fileId}; the router needs one name per position, as the other /api/files/{id} paths.
      path: '/api/files/{id}/shared',
      summary: 'Create a public link (a new address; any live one is revoked)',
      description:
        'expiresAt: null (never), a date-time 1, 7, 30 or 365 days ahead (within an hour), or one of those day counts.',
      tag,
      access: 'account',
      params: idParamsSchema,
      body: shareRequestSchema,
      errors: [409],
      answers: { 201: { description: 'The link.', json: sharedLinkSchema } },
    },
    async ({ ctx, params, body }) => files.share(ctx, params.id, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/files/{id}/shared',
      summary: 'Revoke the public link at once',
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 204: { description: 'Revoked.' } },
    },
    async ({ ctx, params }) => files.revoke(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/files/{id}/shared',
      summary: "The file's live public link, with its use",
      tag,
      access: 'account',
      params: idParamsSchema,
      answers: { 200: { description: 'The link (404 when not shared).', json: sharedLinkSchema } },
    },
    async ({ ctx, params }) => files.shared(ctx, params.id),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/public/files/shared/{id}/download',
      summary: 'Download a shared file through its public link (no session)',
      description: 'Checked on every download: the link exists, is not revoked and has not expired.',
      tag,
      access: 'public',
      params: publicFileParamsSchema,
      answers: FILE_ANSWER,
    },
    // Fastify answers HEAD with this handler too: a HEAD (a link checker, a preview) is no download.
    async ({ params, req, reply }) =>
      send(reply, await files.publicDownload(params.id, { count: req.method !== 'HEAD' })),
  );
}

/**
 * The REST API's description: GET /api/openapi.json (OpenAPI 3.1, generated from every path declared
 * with endpoint()) and a browsable reference at GET /api/docs. The reference is a page and a script
 * of this site (api-docs/viewer.js), so it works offline and under the app's Content Security Policy.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../context';
import { endpoint, type AnyEndpoint } from './endpoint';
import { openApiDocument, type OpenApiDocument } from './openapi';

const ASSETS = path.join(import.meta.dirname, 'api-docs');
const readAsset = (name: string) => fs.readFileSync(path.join(ASSETS, name), 'utf8');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Workspace API reference</title>
    <link rel="stylesheet" href="/api/docs/viewer.css" />
    <script src="/api/docs/viewer.js" defer></script>
  </head>
  <body>
    <main id="reference"><p>Loading the API reference…</p></main>
  </body>
</html>
`;

const documentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** Every endpoint registered on the app, in registration order (read from its route config). */
export function collectEndpoints(app: FastifyInstance): readonly AnyEndpoint[] {
  const endpoints: AnyEndpoint[] = [];
  app.addHook('onRoute', (route) => {
    const spec = route.config?.endpoint;
    // HEAD routes Fastify adds for each GET carry the same config.
    if (spec && route.method !== 'HEAD') endpoints.push(spec);
  });
  return endpoints;
}

/**
 * Call before any REST path is registered: the document lists the paths registered after it (and
 * itself). It is built on first request, when every path is known.
 */
export function registerApiDocs(app: FastifyInstance, deps: Deps): void {
  const endpoints = collectEndpoints(app);
  let built: OpenApiDocument | null = null;
  const tag = 'API description';
  const viewer = { js: readAsset('viewer.js'), css: readAsset('viewer.css') };

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/openapi.json',
      summary: 'This document: every REST path with its parameters, body and answers (OpenAPI 3.1)',
      tag,
      access: 'public',
      answers: { 200: { description: 'The OpenAPI document.', json: documentSchema } },
    },
    async () =>
      (built ??= openApiDocument(endpoints, {
        title: 'Workspace API',
        version: '1',
        serverUrl: deps.config.publicUrl,
      })),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/docs',
      summary: 'A browsable reference of this document',
      tag,
      access: 'public',
      answers: { 200: { description: 'An HTML page.', file: ['text/html'] } },
    },
    async ({ reply }) => reply.type('text/html; charset=utf-8').send(PAGE),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/docs/viewer.js',
      summary: 'The reference page’s script',
      tag,
      access: 'public',
      answers: { 200: { description: 'JavaScript.', file: ['text/javascript'] } },
    },
    async ({ reply }) => reply.type('text/javascript; charset=utf-8').send(viewer.js),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/docs/viewer.css',
      summary: 'The reference page’s styles',
      tag,
      access: 'public',
      answers: { 200: { description: 'CSS.', file: ['text/css'] } },
    },
    async ({ reply }) => reply.type('text/css; charset=utf-8').send(viewer.css),
  );
}

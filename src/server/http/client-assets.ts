import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import middie from '@fastify/middie';
import type { FastifyInstance } from 'fastify';
import { isApiPath } from './request-user';

export type ClientMode = { kind: 'static'; dir: string } | { kind: 'vite' } | { kind: 'none' };

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');
export const CLIENT_ROOT = path.join(PROJECT_ROOT, 'src/client');
export const CLIENT_DIST = path.join(PROJECT_ROOT, 'dist/client');

function isServerPath(url: string): boolean {
  return isApiPath(url) || url.startsWith('/dev/');
}

/**
 * Serves the React client: the built files with an SPA fallback to index.html, or Vite in
 * middleware mode with hot reload for `npm run dev`. index.html is never cached, so the
 * new-deployment check always sees the current main script; hashed assets are cached for good.
 */
export async function registerClient(app: FastifyInstance, mode: ClientMode): Promise<void> {
  if (mode.kind === 'vite') {
    const { createServer } = await import('vite');
    const vite = await createServer({
      configFile: path.join(PROJECT_ROOT, 'vite.config.ts'),
      server: { middlewareMode: true },
      appType: 'spa',
    });
    await app.register(middie);
    app.use((req, res, next) => (isServerPath(req.url ?? '') ? next() : vite.middlewares(req, res, next)));
    app.addHook('onClose', async () => vite.close());
  }

  const hasStatic = mode.kind === 'static' && fs.existsSync(path.join(mode.dir, 'index.html'));
  if (hasStatic) {
    await app.register(fastifyStatic, {
      root: mode.dir,
      index: 'index.html',
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const wantsPage =
      req.method === 'GET' && !isServerPath(req.url) && (req.headers.accept ?? '').includes('text/html');
    if (hasStatic && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: 'Not found.' });
  });
}

/**
 * A real local JSON API on a free port for the REST API connector's tests: one handler per path,
 * every request recorded (path, query, headers) so tests can check what the connector sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The request's body as text ('' when none). */
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** The body's exact text, sent as it is (e.g. JSON numbers JSON.stringify cannot write). */
  raw?: string;
}

/** May answer later (a slow API); `body` is the request's body as text. */
export type Handler = (
  query: URLSearchParams,
  req: http.IncomingMessage,
  base: string,
  body: string,
) => Reply | Promise<Reply>;

export interface ApiPeer {
  baseUrl: string;
  requests: SeenRequest[];
  seen(path: string): SeenRequest[];
  close(): Promise<void>;
}

export async function startApi(routes: Record<string, Handler>): Promise<ApiPeer> {
  const requests: SeenRequest[] = [];
  let baseUrl = '';
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', baseUrl);
      const chunks: Buffer[] = [];
      for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      });
      const handler = routes[url.pathname];
      const reply: Reply = handler
        ? await handler(url.searchParams, req, baseUrl, body)
        : { status: 404, body: { error: 'no route' } };
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    seen: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

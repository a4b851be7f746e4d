/**
 * A real local JSON API on a free port for the REST API connector's tests: one handler per path,
 * every request recorded (path, query, headers) so tests can check what the connector sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** The body's exact text, sent as it is (e.g. JSON numbers JSON.stringify cannot write). */
  raw?: string;
}

export type Handler = (query: URLSearchParams, req: http.IncomingMessage, base: string) => Reply;

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
    const url = new URL(req.url ?? '/', baseUrl);
    requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    const handler = routes[url.pathname];
    const reply: Reply = handler
      ? handler(url.searchParams, req, baseUrl)
      : { status: 404, body: { error: 'no route' } };
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    seen: (path) => requests.filter((r) => r.path === path),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

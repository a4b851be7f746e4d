/**
 * A paged JSON API in the test process, read by a REST API integration of the server under test. The
 * test chooses which generation of records it serves, how many, and how slowly, so a sync can be
 * caught in the middle and the data it would have brought is known.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SourceApi {
  baseUrl: string;
  /** Records of this generation from now on. */
  serve(options: { generation: number; records: number; delayMs?: number }): void;
  /** Pages answered so far. */
  pagesServed(): number;
  close(): Promise<void>;
}

export const PAGE_SIZE = 500;

/** Every value of a record names its generation, so rows of two generations never look alike. */
function record(generation: number, id: number): Record<string, unknown> {
  return { id, name: `item ${id} of generation ${generation}`, amount: id * generation * 1.25 };
}

export async function startSourceApi(): Promise<SourceApi> {
  let current = { generation: 1, records: 10, delayMs: 0 };
  let served = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const page = Number(url.searchParams.get('page') ?? 1);
    const { generation, records, delayMs } = current;
    const from = (page - 1) * PAGE_SIZE;
    const items = Array.from({ length: Math.max(0, Math.min(PAGE_SIZE, records - from)) }, (_, i) =>
      record(generation, from + i + 1),
    );
    setTimeout(() => {
      served += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve: (options) => {
      current = { delayMs: 0, ...options };
    },
    pagesServed: () => served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The configuration of a REST API integration reading this source page by page. */
export function sourceConfiguration(baseUrl: string) {
  return {
    base_url: baseUrl,
    authentication: { type: 'none' },
    streams: [
      {
        name: 'Items',
        path: '/items',
        record_selector: 'items',
        primary_key: 'id',
        pagination: { type: 'page_number', page_param: 'page', size_param: 'page_size', page_size: PAGE_SIZE },
      },
    ],
    max_tries: 1,
    timeout_seconds: 30,
  };
}

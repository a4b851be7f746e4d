import { spawn } from 'node:child_process';
import http from 'node:http';
import readline from 'node:readline';

/**
 * A paginated JSON API for the integrations benchmark: /customers?page=N&per_page=M answering
 * { data: [...] } over `records` generated customers. It runs in its own process, as a real source
 * API would: its JSON work must not share the event loop of the server being measured.
 */

function apiRecord(i: number) {
  return {
    id: i + 1,
    name: `Customer ${i + 1}`,
    city: ['Paris', 'Oslo', 'Rome', 'Lisbon'][i % 4],
    amount: ((i * 7919) % 100_000) / 100,
    active: i % 3 === 0,
    updated_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
  };
}

function serve(records: number, defaultPageSize: number): void {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    const size = Number(url.searchParams.get('per_page') ?? String(defaultPageSize));
    const start = (page - 1) * size;
    const data = [];
    for (let i = start; i < Math.min(start + size, records); i += 1) data.push(apiRecord(i));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data }));
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    console.log(`listening ${address.port}`);
  });
}

/** Starts the API in a child process and answers its base URL once it listens. */
export async function startPagedApi(
  records: number,
  pageSize: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, String(records), String(pageSize)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The paged API exited (${code})`)));
    lines.once('line', (line) => resolve(Number(/^listening (\d+)$/.exec(line)?.[1])));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

if (process.argv[1] === import.meta.filename) serve(Number(process.argv[2]), Number(process.argv[3]));

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildApp, type App } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { searchIndexOf } from '../../src/server/search/search-index';

/** The real app on a loopback port, with a signed-in user. */
export interface BenchServer {
  app: App;
  config: Config;
  baseUrl: string;
  cookie: string;
  accountId: string;
  close(): Promise<void>;
}

/**
 * Waits until global search has taken in what the setup wrote (new tables are queued for it, and a
 * build reads every row on both cores), so requests are timed on an otherwise quiet machine.
 * Returns the wait in ms.
 */
export async function searchIndexSettled(server: BenchServer): Promise<number> {
  const start = performance.now();
  await searchIndexOf(server.app.deps).idle();
  return performance.now() - start;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`HTTP ${status}: ${body.slice(0, 500)}`);
  }
}

/** Builds the app on `dataDir` with `env` over the bench defaults, listens on 127.0.0.1 and signs in. */
export async function startServer(dataDir: string, env: Record<string, string>): Promise<BenchServer> {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await buildApp(config, { logger: false });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('The server has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const close = () => app.server.close();
  try {
    const cookie = await signIn(baseUrl, dataDir, 'bench@example.com');
    const me = await requestJson<{ currentAccountId: string | null }>(baseUrl, cookie, 'GET', '/api/me');
    if (!me.currentAccountId) throw new Error('The bench user has no account');
    return { app, config, baseUrl, cookie, accountId: me.currentAccountId, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Signs in as a user does: asks for a login link, takes it from the outbox the server writes when
 * no SMTP_URL is set (DATA_DIR/outbox.jsonl; /dev/outbox is off in production) and confirms it.
 */
async function signIn(baseUrl: string, dataDir: string, email: string): Promise<string> {
  await requestJson(baseUrl, '', 'POST', '/api/login', { email });
  const lines = fs.readFileSync(path.join(dataDir, 'outbox.jsonl'), 'utf8').trim().split('\n');
  const mail = lines.map((line) => JSON.parse(line) as { to: string; text: string }).findLast((m) => m.to === email);
  const token = mail && /\/confirm\?token=([^\s&]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`No login link for ${email} in the outbox`);
  const res = await fetch(`${baseUrl}/api/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: decodeURIComponent(token) }),
  });
  if (!res.ok) throw new HttpError(res.status, await res.text());
  const session = res.headers.getSetCookie().find((c) => c.startsWith('ws_session='));
  if (!session) throw new Error('Confirming the login set no session cookie');
  return session.split(';')[0] ?? '';
}

type Method = 'GET' | 'POST' | 'PUT';

/**
 * One JSON call; a status other than 2xx throws. Sent with node:http over a keep-alive connection:
 * the client runs in the server's process, and `fetch` (undici) spent ~1-2 ms of that process's
 * time per call, which the API's figures then carried although no server does that work.
 * BENCH_CLIENT=fetch measures with `fetch` instead.
 */
export async function requestJson<T = unknown>(
  baseUrl: string,
  cookie: string,
  method: Method,
  urlPath: string,
  body?: unknown,
): Promise<T> {
  // As the app's own pages send it: body-less POSTs (publish, trigger) need this site's Origin.
  const headers: Record<string, string> = { origin: new URL(baseUrl).origin };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (process.env.BENCH_CLIENT === 'fetch') {
    const res = await fetch(`${baseUrl}${urlPath}`, { method, headers, body: payload });
    if (!res.ok) throw new HttpError(res.status, await res.text());
    return (await res.json()) as T;
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  const { status, text } = await httpCall(new URL(urlPath, baseUrl), method, headers, payload);
  if (status < 200 || status >= 300) throw new HttpError(status, text);
  return JSON.parse(text) as T;
}

const agent = new http.Agent({ keepAlive: true });

function httpCall(
  url: URL,
  method: Method,
  headers: Record<string, string>,
  payload: string | undefined,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { onTestFinished } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp, type BuildOptions } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { testClock, type TestApp } from '../helpers';

export interface HubApp extends TestApp {
  /** http://127.0.0.1:{port} */
  base: string;
  port: number;
}

/**
 * The whole app on a real port (the official client needs one), on a fresh data folder unless
 * given one (a restart). Closed, and the folder removed, when the test finishes.
 */
export async function startHubApp(
  options: { hubs?: BuildOptions['hubs']; dataDir?: string; port?: number; env?: Record<string, string> } = {},
): Promise<HubApp> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ws-hubs-'));
  const clock = testClock();
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'http://localhost:3000',
    DATA_DIR: dataDir,
    ...options.env,
  });
  const app = await buildApp(config, { logger: false, clock: clock.now, hubs: options.hubs });
  await app.server.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.server.close();
  };
  onTestFinished(async () => {
    await close();
    if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { ...app, dataDir, clock, close, port: address.port, base: `http://127.0.0.1:${address.port}` };
}

/** The official client for one hub, authenticated by the session cookie (Node sends it as a header). */
export function hubClient(
  base: string,
  hub: string,
  cookie: string,
  options: { headers?: Record<string, string>; reconnect?: number[]; transport?: HttpTransportType } = {},
): HubConnection {
  let builder = new HubConnectionBuilder()
    .withUrl(`${base}/api/hubs/${hub}`, {
      headers: { cookie, ...options.headers },
      transport: options.transport ?? HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None);
  if (options.reconnect) builder = builder.withAutomaticReconnect(options.reconnect);
  const connection = builder.build();
  onTestFinished(() => connection.stop());
  return connection;
}

/** Resolves with the arguments of the next `target` invocation the connection receives. */
export function nextInvocation(connection: HubConnection, target: string): Promise<unknown[]> {
  return new Promise((resolve) => {
    const handler = (...args: unknown[]) => {
      connection.off(target, handler);
      resolve(args);
    };
    connection.on(target, handler);
  });
}

/** A hub connection without the official client: the records it receives, split at 0x1E. */
export interface RawHub {
  ws: WebSocket;
  /** The next record received (waits for it); rejects when the socket closes first. */
  next(): Promise<string>;
  /** Resolves with the close code once the socket closed. */
  closed: Promise<number>;
  sendRecord(text: string): void;
}

/** Negotiates with the session cookie and opens the WebSocket transport; no handshake yet. */
export async function rawHub(
  base: string,
  cookie: string,
  options: { hub?: string; headers?: Record<string, string> } = {},
): Promise<RawHub> {
  const hub = options.hub ?? 'notifications';
  const res = await fetch(`${base}/api/hubs/${hub}/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { cookie },
  });
  const answer = (await res.json()) as { connectionToken?: string };
  if (!answer.connectionToken) throw new Error(`negotiate failed: ${JSON.stringify(answer)}`);
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/hubs/${hub}?id=${answer.connectionToken}`, {
    headers: { cookie, ...options.headers },
  });
  const queue: string[] = [];
  const waiting: { resolve: (r: string) => void; reject: (e: Error) => void }[] = [];
  let ended = false;
  ws.on('message', (data) => {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
    for (const record of text.split('\u001e').filter((r) => r !== '')) {
      const waiter = waiting.shift();
      if (waiter) waiter.resolve(record);
      else queue.push(record);
    }
  });
  const closed = new Promise<number>((resolve) =>
    ws.on('close', (code) => {
      ended = true;
      for (const w of waiting.splice(0)) w.reject(new Error(`closed ${code}`));
      resolve(code);
    }),
  );
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    ws.once('error', reject);
  });
  onTestFinished(() => ws.terminate());
  return {
    ws,
    closed,
    next: () => {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (ended) return Promise.reject(new Error('closed'));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    sendRecord: (text) => ws.send(`${text}\u001e`),
  };
}

/** The HTTP status of a WebSocket upgrade the server refused (or 101 when it was accepted). */
export function upgradeStatus(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.terminate();
      resolve({ status: 101, body: '' });
    });
    ws.once('unexpected-response', (_req, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

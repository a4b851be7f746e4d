/**
 * A REST client for the crash suite: real HTTP to the server process, the session cookie kept across
 * restarts (sessions live in the metadata store), sign-in through the outbox file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { ServerProcess } from './server-process';

export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export class Client {
  cookie = '';

  constructor(public server: ServerProcess) {}

  async call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const isRaw = typeof body === 'string';
    const res = await fetch(`${this.server.url}${url}`, {
      method,
      headers: {
        origin: this.server.url,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined && !isRaw ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isRaw ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('ws_session='));
    if (setCookie) this.cookie = setCookie.split(';')[0] ?? '';
    return { status: res.status, body: parsed as T, text };
  }

  /** The body of an answer with the expected status; the answer is shown when it differs. */
  async ok<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    status = 200,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const answer = await this.call<T>(method, url, body, headers);
    expect(answer.status, `${method} ${url}: ${answer.text.slice(0, 500)}`).toBe(status);
    return answer.body;
  }
}

/** Signs in through the outbox: the first address becomes the owner of a new account. */
export async function signIn(client: Client, email: string): Promise<void> {
  await client.ok('POST', '/api/login', { email });
  const outbox = path.join(client.server.dataDir, 'outbox.jsonl');
  const mails = fs
    .readFileSync(outbox, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { to: string; text: string });
  const mail = mails.filter((m) => m.to === email).at(-1);
  const token = mail && /[?&]token=([\w-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`No sign-in link for ${email} in the outbox`);
  await client.ok('POST', '/api/confirm', { token });
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined>, ms = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() - started > ms) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect, onTestFinished } from 'vitest';
import type { Account } from '../../src/shared/accounts';
import type { Me } from '../../src/shared/auth';
import { buildApp, type App } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';

/** A wall clock the test moves by hand, so token expiry needs no waiting. */
export interface TestClock {
  now: () => Date;
  advance: (ms: number) => void;
}

export function testClock(start = new Date('2026-03-04T10:00:00.000Z')): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface TestApp extends App {
  dataDir: string;
  clock: TestClock;
  close: () => Promise<void>;
}

/**
 * Builds the whole app on a fresh temporary data folder (real SQLite, outbox mail). Call it inside a
 * test: the server is closed and the folder removed when the test finishes.
 */
export async function makeApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-test-'));
  const clock = testClock();
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dataDir, ...env });
  const app = await buildApp(config, { logger: false, clock: clock.now });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  onTestFinished(close);
  return { ...app, dataDir, clock, close };
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

/** Every mail in DATA_DIR/outbox.jsonl, oldest first, read straight from the file. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const file = path.join(dataDir, 'outbox.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OutboxMail);
}

export function mailsTo(t: TestApp, email: string): OutboxMail[] {
  return readOutbox(t.dataDir).filter((m) => m.to === email);
}

/** The newest mail to an address; fails the test when there is none. */
export function lastMailTo(t: TestApp, email: string): OutboxMail {
  const mail = mailsTo(t, email).at(-1);
  if (!mail) throw new Error(`No mail to ${email} in the outbox`);
  return mail;
}

/** The first link in a mail's text that starts with `${publicUrl}${pathname}`. */
export function linkIn(mail: OutboxMail, pathname: '/confirm' | '/invite'): URL {
  const match = /https?:\/\/\S+/g;
  for (const [href] of mail.text.matchAll(match)) {
    const url = new URL(href);
    if (url.pathname === pathname) return url;
  }
  throw new Error(`No ${pathname} link in mail "${mail.subject}"`);
}

export function loginTokenIn(mail: OutboxMail): string {
  const token = linkIn(mail, '/confirm').searchParams.get('token');
  if (!token) throw new Error('Login link without token');
  return token;
}

export function inviteLinkIn(mail: OutboxMail): { token: string; accountId: string } {
  const url = linkIn(mail, '/invite');
  const token = url.searchParams.get('token');
  const accountId = url.searchParams.get('accountId');
  if (!token || !accountId) throw new Error('Invite link without token or accountId');
  return { token, accountId };
}

export interface CallOptions {
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The PUBLIC_URL of makeApp's apps, which `call` sends as Origin unless told otherwise. */
export const TEST_ORIGIN = 'http://localhost:3000';
/** `headers: { origin: NO_ORIGIN }` sends no Origin header at all. */
export const NO_ORIGIN = '';
type InjectPayload = NonNullable<InjectOptions['payload']>;

/** One HTTP call through app.inject, JSON in and out. */
export async function call<T = unknown>(
  server: FastifyInstance,
  method: Method,
  url: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  // As the app's own pages send it; a test of cross-site requests sets its own (or none, with null).
  const headers: Record<string, string> = { origin: TEST_ORIGIN, ...options.headers };
  if (options.headers?.origin === NO_ORIGIN) delete headers.origin;
  if (options.cookie) headers.cookie = options.cookie;
  const res = await server.inject({
    method,
    url,
    headers,
    ...(options.body === undefined ? {} : { payload: options.body as InjectPayload }),
  });
  const text = res.body;
  let body: unknown = text;
  if ((res.headers['content-type'] ?? '').toString().includes('application/json') && text) body = JSON.parse(text);
  return { status: res.statusCode, body: body as T, headers: res.headers, raw: res };
}

/** The `{ message }` of a REST error answer, after checking the status. */
export function expectError(res: CallResult, status: number): string {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = res.body as { message?: unknown };
  expect(typeof body.message).toBe('string');
  return body.message as string;
}

/** The raw Set-Cookie header for the session cookie, or undefined. */
export function sessionSetCookie(res: CallResult | LightMyRequestResponse): string | undefined {
  const setCookie = res.headers['set-cookie'];
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [String(setCookie)] : [];
  return all.find((c) => c.startsWith('ws_session='));
}

/** `ws_session=...` ready for a Cookie header; fails when the answer set no session. */
export function cookieFrom(res: CallResult | LightMyRequestResponse): string {
  const header = sessionSetCookie(res);
  if (!header) throw new Error('The answer set no session cookie');
  return header.split(';')[0] ?? '';
}

/** Asks for a login link and returns its token from the outbox. */
export async function requestLoginToken(t: TestApp, email: string, returnUrl?: string): Promise<string> {
  const query = returnUrl === undefined ? '' : `?returnUrl=${encodeURIComponent(returnUrl)}`;
  const before = mailsTo(t, email).length;
  const res = await call(t.server, 'POST', `/api/login${query}`, { body: { email } });
  expect(res.status).toBe(200);
  const mails = mailsTo(t, email);
  expect(mails.length, `a login mail to ${email}`).toBe(before + 1);
  return loginTokenIn(mails.at(-1) as OutboxMail);
}

/** Signs in through the outbox (REST login and confirm) and returns the session cookie. */
export async function signIn(t: TestApp, email: string): Promise<string> {
  const token = await requestLoginToken(t, email);
  const res = await call(t.server, 'POST', '/api/confirm', { body: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return cookieFrom(res);
}

export async function me(t: TestApp, cookie: string): Promise<Me> {
  const res = await call<Me>(t.server, 'GET', '/api/me', { cookie });
  expect(res.status).toBe(200);
  return res.body;
}

export async function getAccount(t: TestApp, cookie: string, accountId: string): Promise<Account> {
  const res = await call<Account>(t.server, 'GET', `/api/accounts/${accountId}`, { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Invites an address into the inviter's current account and returns the link's token and accountId. */
export async function invite(
  t: TestApp,
  cookie: string,
  email: string,
  roles: string[] = ['read_only'],
  name = '',
): Promise<{ token: string; accountId: string }> {
  const res = await call(t.server, 'POST', '/api/accounts/invite', { cookie, body: { email, roles, name } });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  return inviteLinkIn(lastMailTo(t, email));
}

export async function acceptInvite(t: TestApp, link: { token: string; accountId: string }): Promise<string> {
  const res = await call(t.server, 'POST', `/api/accounts/${link.accountId}/invite/accept`, {
    body: { token: link.token },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  return cookieFrom(res);
}

export interface Member {
  email: string;
  cookie: string;
  userId: string;
}

/** Invites an address with the given roles and accepts as that user. */
export async function addMember(t: TestApp, inviterCookie: string, email: string, roles: string[]): Promise<Member> {
  const cookie = await acceptInvite(t, await invite(t, inviterCookie, email, roles));
  return { email, cookie, userId: (await me(t, cookie)).id };
}

export interface Team {
  accountId: string;
  /** First user: global admin and owner. */
  owner: Member;
  admin: Member;
  readOnly: Member;
}

/**
 * The usual cast of one account: an owner (signed in first; a global admin only when it is the very
 * first user of the app, and it needs SIGNUP=open otherwise), an account admin and a read_only
 * member. `prefix` keeps the addresses of several teams apart.
 */
export async function makeTeam(t: TestApp, prefix = ''): Promise<Team> {
  const ownerEmail = `${prefix}owner@example.com`;
  const ownerCookie = await signIn(t, ownerEmail);
  const ownerMe = await me(t, ownerCookie);
  if (!ownerMe.currentAccountId) throw new Error(`${ownerEmail} has no account`);
  const owner = { email: ownerEmail, cookie: ownerCookie, userId: ownerMe.id };
  const admin = await addMember(t, ownerCookie, `${prefix}admin@example.com`, ['admin']);
  const readOnly = await addMember(t, ownerCookie, `${prefix}reader@example.com`, ['read_only']);
  return { accountId: ownerMe.currentAccountId, owner, admin, readOnly };
}

export function rolesOf(account: Account, email: string): string[] | undefined {
  return account.members.find((m) => m.username === email)?.roles;
}

/** A tRPC mutation over HTTP (non-batched), as `{ status, body }`. */
export async function trpcMutation<T = unknown>(
  t: TestApp,
  procedure: string,
  input: unknown,
  cookie?: string,
): Promise<CallResult<T>> {
  // Like the tRPC client, always say JSON, even for procedures without input.
  const headers = { 'content-type': 'application/json' };
  return call<T>(t.server, 'POST', `/trpc/${procedure}`, {
    cookie,
    headers,
    body: input === undefined ? '' : JSON.stringify(input),
  });
}

/** A tRPC query over HTTP (non-batched), input as the `input` query parameter. */
export async function trpcQuery<T = unknown>(
  t: TestApp,
  procedure: string,
  input: unknown,
  cookie?: string,
): Promise<CallResult<T>> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return call<T>(t.server, 'GET', `/trpc/${procedure}${query}`, { cookie });
}

export interface TrpcError {
  error: { message: string; data: { code: string; httpStatus: number } };
}

export interface TrpcData<T> {
  result: { data: T };
}

/** A minimal valid 1x1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Listens on a free local port; the server is closed with the app when the test finishes. */
export async function listen(t: TestApp): Promise<string> {
  await t.server.listen({ port: 0, host: '127.0.0.1' });
  const address = t.server.server.address();
  if (!address || typeof address === 'string') throw new Error('No TCP address');
  return `http://127.0.0.1:${address.port}`;
}

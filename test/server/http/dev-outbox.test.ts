import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { isLoopbackAddress } from '../../../src/server/http/loopback';
import {
  call,
  lastMailTo,
  linkIn,
  loginTokenIn,
  makeApp,
  readOutbox,
  requestLoginToken,
  type OutboxMail,
  type TestApp,
} from '../helpers';

interface Visitor {
  remoteAddress?: string;
  headers?: Record<string, string>;
}

/** GET /dev/outbox as a client at `remoteAddress` (the socket's peer address) with the given headers. */
async function openOutbox(t: TestApp, visitor: Visitor = {}) {
  return t.server.inject({
    method: 'GET',
    url: '/dev/outbox',
    remoteAddress: visitor.remoteAddress ?? '127.0.0.1',
    headers: { host: 'localhost:3000', ...visitor.headers },
  });
}

/** An app where the victim has asked for a sign-in link, so the outbox holds a token worth stealing. */
async function appWithPendingLink(env: Record<string, string> = {}): Promise<{ t: TestApp; token: string }> {
  const t = await makeApp(env);
  const token = await requestLoginToken(t, 'victim@example.com');
  return { t, token };
}

describe('GET /dev/outbox outside production', () => {
  it('lists the sign-in link to a browser on the server itself', async () => {
    const { t, token } = await appWithPendingLink();
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000']) {
        const res = await openOutbox(t, { remoteAddress, headers: { host } });
        expect(res.statusCode, `${remoteAddress} ${host}`).toBe(200);
        expect(res.body).toContain(token);
      }
    }
  });

  it.each([
    { label: 'a client on another machine', remoteAddress: '203.0.113.7' },
    { label: 'a client on the local network', remoteAddress: '192.168.1.20' },
    { label: 'an IPv4-mapped non-loopback client', remoteAddress: '::ffff:10.0.0.5' },
    { label: 'a remote client forging X-Forwarded-For', remoteAddress: '203.0.113.7', xff: '127.0.0.1' },
    { label: 'a local proxy forwarding a remote client', remoteAddress: '127.0.0.1', xff: '203.0.113.7' },
    { label: 'a local proxy forwarding a forged loopback', remoteAddress: '127.0.0.1', xff: '127.0.0.1' },
  ])('is refused to $label, with or without TRUST_PROXY', async ({ remoteAddress, xff }) => {
    for (const trustProxy of ['false', 'true']) {
      const { t, token } = await appWithPendingLink({ TRUST_PROXY: trustProxy });
      const headers: Record<string, string> = xff ? { 'x-forwarded-for': xff } : {};
      const res = await openOutbox(t, { remoteAddress, headers });
      expect(res.statusCode, `TRUST_PROXY=${trustProxy}`).toBe(403);
      expect(res.body).not.toContain(token);
      expect(res.json()).toEqual({ message: expect.stringContaining('outbox.jsonl') });
      await t.close();
    }
  });

  it('is refused to a loopback socket carrying any proxy header', async () => {
    const { t, token } = await appWithPendingLink({ TRUST_PROXY: 'true' });
    const proxyHeaders: Array<Record<string, string>> = [
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
      { via: '1.1 nginx' },
      { 'x-forwarded-host': 'localhost' },
    ];
    for (const headers of proxyHeaders) {
      const res = await openOutbox(t, { headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.body).not.toContain(token);
    }
  });

  it('is refused when the Host names another site (a DNS-rebound page in a local browser)', async () => {
    const { t, token } = await appWithPendingLink();
    for (const host of ['attacker.example', 'attacker.example:3000', '127.0.0.1.nip.io:3000']) {
      const res = await openOutbox(t, { headers: { host } });
      expect(res.statusCode, host).toBe(403);
      expect(res.body).not.toContain(token);
    }
  });

  it('lets a stolen-link attack fail end to end: the remote attacker learns nothing and cannot confirm', async () => {
    const { t } = await appWithPendingLink();
    const res = await openOutbox(t, { remoteAddress: '198.51.100.9', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(res.statusCode).toBe(403);
    // Nothing in the answer looks like a token the attacker could confirm.
    expect(res.body).not.toMatch(/token=/);
    // The victim's own link (read from the file on the server) still works for the victim.
    const confirm = await call(t.server, 'POST', '/api/confirm', {
      body: { token: loginTokenIn(lastMailTo(t, 'victim@example.com')) },
    });
    expect(confirm.status).toBe(200);
  });
});

describe('GET /dev/outbox in production', () => {
  it('does not exist, even for a loopback client', async () => {
    const { t } = await appWithPendingLink({ NODE_ENV: 'production' });
    expect((await openOutbox(t)).statusCode).toBe(404);
  });
});

describe('mail without SMTP', () => {
  it('is written to DATA_DIR/outbox.jsonl and its links are printed on the server console', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-test-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:3000',
      DATA_DIR: dataDir,
    });
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((text: unknown) => void printed.push(String(text)));
    const app = await buildApp(config);
    onTestFinished(async () => {
      log.mockRestore();
      await app.server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const res = await call(app.server, 'POST', '/api/login', { body: { email: 'ann@example.com' } });
    expect(res.status).toBe(200);
    const link = linkIn(readOutbox(dataDir).at(-1) as OutboxMail, '/confirm').href;
    expect(printed.join('\n')).toContain('ann@example.com');
    expect(printed.join('\n')).toContain(link);
  });
});

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['128.0.0.1', false],
    ['::2', false],
    ['fe80::1', false],
    ['localhost', false],
    ['', false],
  ])('%s is loopback: %s', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });
});

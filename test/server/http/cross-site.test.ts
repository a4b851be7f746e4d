import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/shared/messages';
import { NO_ORIGIN, TEST_ORIGIN, call, expectError, makeApp, me, signIn, type TestApp } from '../helpers';
import { createTable, uploadCsv } from '../static-tables/helpers';

const EVIL = 'https://evil.example';

async function signedIn() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  return { t, cookie };
}

function stillSignedIn(t: TestApp, cookie: string) {
  return call(t.server, 'GET', '/api/me', { cookie }).then((res) => res.status);
}

function multipart(fields: Record<string, string>): { body: string; type: string } {
  const boundary = '----probe';
  const body =
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}--\r\n`;
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe('cross-site requests', () => {
  it('refuse a body-less action that carries no sign of coming from this site', async () => {
    const { t, cookie } = await signedIn();
    const res = await call(t.server, 'POST', '/api/logout', { cookie, headers: { origin: NO_ORIGIN } });
    expect(expectError(res, 403)).toBe(MESSAGES.crossSiteRefused);
    expect(await stillSignedIn(t, cookie)).toBe(200);
  });

  it('refuse what a page of another site can send: text/plain, url-encoded and multipart forms', async () => {
    const { t, cookie } = await signedIn();
    const accountId = (await me(t, cookie)).currentAccountId;
    const form = multipart({ Message: 'from another site' });
    const attempts = [
      { url: '/api/login', type: 'text/plain', body: '{"email":"victim@example.com"}' },
      { url: '/api/logout', type: 'application/x-www-form-urlencoded', body: 'a=b' },
      { url: '/api/error-reports', type: form.type, body: form.body },
      { url: `/api/accounts/${accountId}`, type: 'text/plain', body: '{"name":"Taken"}', method: 'PUT' as const },
    ];
    for (const origin of [NO_ORIGIN, EVIL, 'null']) {
      for (const attempt of attempts) {
        const res = await call(t.server, attempt.method ?? 'POST', attempt.url, {
          cookie,
          headers: { origin, 'content-type': attempt.type },
          body: attempt.body,
        });
        expect(res.status, `${attempt.url} ${attempt.type} from ${origin || 'nowhere'}`).toBe(403);
      }
    }
    expect(await stillSignedIn(t, cookie)).toBe(200);
  });

  it('refuse even JSON when the browser says another site sent it', async () => {
    const { t, cookie } = await signedIn();
    const id = (await me(t, cookie)).currentAccountId;
    const attempts: Record<string, string>[] = [
      { origin: EVIL },
      { origin: NO_ORIGIN, 'sec-fetch-site': 'cross-site' },
      { origin: NO_ORIGIN, referer: `${EVIL}/page` },
      { origin: 'http://localhost:3000.evil.example' },
    ];
    for (const headers of attempts) {
      const res = await call(t.server, 'PUT', `/api/accounts/${id}`, { cookie, headers, body: { name: 'Taken' } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
  });

  it("let the app's own pages through, by Origin, Sec-Fetch-Site or Referer, and scripts that send JSON", async () => {
    const { t, cookie } = await signedIn();
    const table = await createTable(t, cookie, { name: 'Mine', columns: [{ displayName: 'A' }], rows: [] });
    expect((await uploadCsv(t, cookie, table.id, 'A\n1\n')).status).toBe(200);
    const id = (await me(t, cookie)).currentAccountId;
    const ours: Record<string, string>[] = [
      { origin: TEST_ORIGIN },
      // The address the request was sent to counts as this site too (a server reached by its LAN address).
      { origin: 'http://192.168.1.20:3000', host: '192.168.1.20:3000' },
      { origin: NO_ORIGIN, 'sec-fetch-site': 'same-origin' },
      { origin: NO_ORIGIN, referer: `${TEST_ORIGIN}/settings/account` },
      { origin: NO_ORIGIN },
    ];
    for (const headers of ours) {
      const res = await call(t.server, 'PUT', `/api/accounts/${id}`, { cookie, headers, body: { name: 'Ours' } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('leave the webhook address to its own secret: a JSON post from anywhere reaches it', async () => {
    const t = await makeApp();
    const res = await call(t.server, 'POST', '/api/integrations/webhook/no-such-token', {
      headers: { origin: EVIL },
      body: { id: 1 },
    });
    expect(res.status).toBe(404);
  });
});

describe('security headers', () => {
  it('are sent on pages and API answers: own scripts only, no framing, nosniff, referrer kept in the site', async () => {
    const { t, cookie } = await signedIn();
    for (const url of ['/api/me', '/api/no-such-path']) {
      const res = await call(t.server, 'GET', url, { cookie });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('add HSTS when the app is served over https', async () => {
    const t = await makeApp({ PUBLIC_URL: 'https://data.example.com' });
    const res = await call(t.server, 'GET', '/api/me');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it("let only the app itself frame a download form's answer, where an error is read and shown", async () => {
    const { t, cookie } = await signedIn();
    const table = await createTable(t, cookie, { name: 'T', columns: [{ displayName: 'A' }], rows: [] });
    const res = await call(t.server, 'POST', `/api/tables/StaticTable/${table.id}/download`, {
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'format=csv',
    });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    const refused = await call(t.server, 'POST', `/api/tables/StaticTable/${table.id}/download`, {
      cookie,
      headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'format=csv',
    });
    expect(refused.status).toBe(403);
  });
});

import { describe, expect, it } from 'vitest';
import type { Me } from '../../src/shared/auth';
import {
  call,
  cookieFrom,
  expectError,
  lastMailTo,
  loginTokenIn,
  mailsTo,
  makeApp,
  me,
  readOutbox,
  requestLoginToken,
  sessionSetCookie,
  signIn,
  trpcMutation,
  trpcQuery,
  type TrpcData,
} from './helpers';

describe('sign-in through the outbox (REST)', () => {
  it('mails a link, confirms it into an HttpOnly SameSite=Lax cookie and answers /api/me', async () => {
    const t = await makeApp();
    const login = await call(t.server, 'POST', '/api/login', { body: { email: '  Ann.Lee@Example.com ' } });
    expect(login.status).toBe(200);

    const mail = lastMailTo(t, 'ann.lee@example.com');
    expect(mail.subject).toBe('Your sign-in link');
    expect(Date.parse(mail.sentAt)).toBe(t.clock.now().getTime());
    const link = new URL(/http:\/\/localhost:3000\/confirm\?token=\S+/.exec(mail.text)?.[0] ?? '');
    expect(mail.html).toContain(link.href.replace(/&/g, '&#38;'));

    const confirm = await call(t.server, 'POST', '/api/confirm', { body: { token: loginTokenIn(mail) } });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ returnUrl: null });
    const setCookie = sessionSetCookie(confirm) ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i);

    const user = await me(t, cookieFrom(confirm));
    expect(user).toMatchObject({ email: 'ann.lee@example.com', name: 'Ann Lee', roles: ['admin', 'user'] });
    expect(user.accounts).toEqual([
      {
        id: user.currentAccountId,
        name: "Ann Lee's account",
        roles: ['owner'],
        lastLoginAt: t.clock.now().toISOString(),
      },
    ]);
  });

  it('answers 401 on /api/me without a session or with an unknown cookie', async () => {
    const t = await makeApp();
    expectError(await call(t.server, 'GET', '/api/me'), 401);
    expectError(await call(t.server, 'GET', '/api/me', { cookie: 'ws_session=made-up' }), 401);
  });

  it('marks the cookie Secure when PUBLIC_URL is https, and links point at PUBLIC_URL', async () => {
    const t = await makeApp({ PUBLIC_URL: 'https://data.example.com/' });
    // The browser's Origin is the public address.
    const headers = { origin: 'https://data.example.com' };
    await call(t.server, 'POST', '/api/login', { body: { email: 'ann@example.com' }, headers });
    const mail = lastMailTo(t, 'ann@example.com');
    expect(mail.text).toContain('https://data.example.com/confirm?token=');
    const confirm = await call(t.server, 'POST', '/api/confirm', { body: { token: loginTokenIn(mail) }, headers });
    expect(sessionSetCookie(confirm)).toMatch(/;\s*Secure/i);
  });

  it('keeps the first user as the only global admin; a later invited-free address gets no mail', async () => {
    const t = await makeApp();
    await signIn(t, 'first@example.com');

    const known = await call(t.server, 'POST', '/api/login', { body: { email: 'first@example.com' } });
    const unknown = await call(t.server, 'POST', '/api/login', { body: { email: 'stranger@example.com' } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
    expect(mailsTo(t, 'stranger@example.com')).toEqual([]);
    expect(mailsTo(t, 'first@example.com')).toHaveLength(2);
  });

  it('gives a later address its own account, as a plain user, when SIGNUP=open', async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    const firstMe = await me(t, await signIn(t, 'first@example.com'));
    const second = await me(t, await signIn(t, 'second@example.com'));
    expect(second.roles).toEqual(['user']);
    expect(second.accounts).toHaveLength(1);
    expect(second.accounts[0]).toMatchObject({ name: "Second's account", roles: ['owner'] });
    expect(second.currentAccountId).not.toBe(firstMe.currentAccountId);
  });

  it('lands a returning user in the same account, with lastLoginAt moved', async () => {
    const t = await makeApp();
    const first = await me(t, await signIn(t, 'ann@example.com'));
    t.clock.advance(60 * 60_000);
    const again = await me(t, await signIn(t, 'ann@example.com'));
    expect(again.id).toBe(first.id);
    expect(again.currentAccountId).toBe(first.currentAccountId);
    expect(again.accounts[0]?.lastLoginAt).toBe(t.clock.now().toISOString());
  });
});

describe('login tokens', () => {
  it('refuses a token the second time', async () => {
    const t = await makeApp();
    const token = await requestLoginToken(t, 'ann@example.com');
    expect((await call(t.server, 'POST', '/api/confirm', { body: { token } })).status).toBe(200);
    const again = await call(t.server, 'POST', '/api/confirm', { body: { token } });
    expect(expectError(again, 400)).toMatch(/Login failed/);
    expect(sessionSetCookie(again)).toBeUndefined();
  });

  it('accepts a token just before 15 minutes and refuses it after', async () => {
    const t = await makeApp();
    const early = await requestLoginToken(t, 'ann@example.com');
    const late = await requestLoginToken(t, 'ann@example.com');
    t.clock.advance(15 * 60_000 - 1_000);
    expect((await call(t.server, 'POST', '/api/confirm', { body: { token: early } })).status).toBe(200);
    t.clock.advance(2_000);
    expectError(await call(t.server, 'POST', '/api/confirm', { body: { token: late } }), 400);
  });

  it('refuses a made-up token', async () => {
    const t = await makeApp();
    await signIn(t, 'ann@example.com');
    expectError(await call(t.server, 'POST', '/api/confirm', { body: { token: 'x'.repeat(43) } }), 400);
  });

  it('stores login tokens and sessions only hashed', async () => {
    const t = await makeApp();
    const token = await requestLoginToken(t, 'ann@example.com');
    const rows = await t.deps.db.selectFrom('login_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]?.token_hash).toBe(t.deps.hashToken(token));
    expect(rows[0]?.token_hash).not.toBe(token);

    const confirm = await call(t.server, 'POST', '/api/confirm', { body: { token } });
    const sessionToken = cookieFrom(confirm).slice('ws_session='.length);
    const sessions = await t.deps.db.selectFrom('sessions').selectAll().execute();
    expect(sessions).toHaveLength(1);
    expect(JSON.stringify(sessions)).not.toContain(sessionToken);
  });
});

describe('returnUrl', () => {
  it('gives back a path on this site after confirm', async () => {
    const t = await makeApp();
    const token = await requestLoginToken(t, 'ann@example.com', '/settings/account');
    const confirm = await call(t.server, 'POST', '/api/confirm', { body: { token } });
    expect(confirm.body).toEqual({ returnUrl: '/settings/account' });
  });

  it('keeps query and hash, and accepts an absolute URL on PUBLIC_URL', async () => {
    const t = await makeApp();
    await signIn(t, 'ann@example.com');
    for (const [asked, expected] of [
      ['/models/7?tab=Configure#top', '/models/7?tab=Configure#top'],
      ['http://localhost:3000/reports', '/reports'],
    ] as const) {
      const token = await requestLoginToken(t, 'ann@example.com', asked);
      const confirm = await call(t.server, 'POST', '/api/confirm', { body: { token } });
      expect(confirm.body, asked).toEqual({ returnUrl: expected });
    }
  });

  it.each([
    'https://evil.example/x',
    '//evil.example',
    '/\\evil.example',
    '/..//evil.example',
    'javascript:alert(1)',
    'settings',
  ])('drops %s', async (returnUrl) => {
    const t = await makeApp();
    const token = await requestLoginToken(t, 'ann@example.com', returnUrl);
    const confirm = await call(t.server, 'POST', '/api/confirm', { body: { token } });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ returnUrl: null });
  });
});

describe('logout', () => {
  it('revokes the session on the server, so the old cookie stops working', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'ann@example.com');
    const other = await signIn(t, 'ann@example.com');
    const res = await call(t.server, 'POST', '/api/logout', { cookie });
    expect(res.status).toBe(204);
    expect(sessionSetCookie(res)).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expectError(await call(t.server, 'GET', '/api/me', { cookie }), 401);
    expect((await call(t.server, 'GET', '/api/me', { cookie: other })).status).toBe(200);
    const revoked = await t.deps.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('revoked_at', 'is not', null)
      .execute();
    expect(revoked).toHaveLength(1);
  });
});

describe('rate limits', () => {
  it('refuses too many requests for one address with a 429 and a message', async () => {
    const t = await makeApp({ LOGIN_LIMIT_PER_ADDRESS: '2', LOGIN_LIMIT_PER_CLIENT: '100' });
    for (let i = 0; i < 2; i += 1) {
      expect((await call(t.server, 'POST', '/api/login', { body: { email: 'ann@example.com' } })).status).toBe(200);
    }
    t.clock.advance(60_000);
    const refused = await call(t.server, 'POST', '/api/login', { body: { email: 'ANN@example.com' } });
    expect(expectError(refused, 429)).toMatch(/Too many sign-in requests/);
    // The window began a minute ago: 14 minutes to wait.
    expect(refused.headers['retry-after']).toBe(String(14 * 60));
    expect(mailsTo(t, 'ann@example.com')).toHaveLength(2);
    expect((await call(t.server, 'POST', '/api/login', { body: { email: 'bob@example.com' } })).status).toBe(200);

    t.clock.advance(14 * 60_000);
    expect((await call(t.server, 'POST', '/api/login', { body: { email: 'ann@example.com' } })).status).toBe(200);
  });

  it('refuses too many requests from one client, whatever the address', async () => {
    const t = await makeApp({ LOGIN_LIMIT_PER_ADDRESS: '100', LOGIN_LIMIT_PER_CLIENT: '3' });
    for (let i = 0; i < 3; i += 1) {
      const res = await call(t.server, 'POST', '/api/login', { body: { email: `user${i}@example.com` } });
      expect(res.status).toBe(200);
    }
    const refused = await call(t.server, 'POST', '/api/login', { body: { email: 'someone@example.com' } });
    expect(expectError(refused, 429)).toMatch(/Too many sign-in requests/);
    const trpc = await trpcMutation(t, 'auth.requestLogin', { email: 'other@example.com' });
    expect(trpc.status).toBe(429);
    expect(trpc.headers['retry-after']).toBe(String(15 * 60));
  });
});

describe('client address behind a proxy', () => {
  const fromClient = (ip: string) => ({ body: { email: `${ip}@example.com` }, headers: { 'x-forwarded-for': ip } });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set, so the per-client limit cannot be dodged', async () => {
    const t = await makeApp({ LOGIN_LIMIT_PER_ADDRESS: '100', LOGIN_LIMIT_PER_CLIENT: '2' });
    for (const ip of ['10.0.0.1', '10.0.0.2']) {
      expect((await call(t.server, 'POST', '/api/login', fromClient(ip))).status).toBe(200);
    }
    expect((await call(t.server, 'POST', '/api/login', fromClient('10.0.0.3'))).status).toBe(429);
  });

  it('counts each forwarded client on its own behind a trusted proxy', async () => {
    const t = await makeApp({ LOGIN_LIMIT_PER_ADDRESS: '100', LOGIN_LIMIT_PER_CLIENT: '2', TRUST_PROXY: 'true' });
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.3']) {
      expect((await call(t.server, 'POST', '/api/login', fromClient(ip))).status).toBe(200);
    }
    expect((await call(t.server, 'POST', '/api/login', fromClient('10.0.0.3'))).status).toBe(429);
  });
});

describe('sign-in through tRPC', () => {
  it('requests, confirms and reads the current user', async () => {
    const t = await makeApp();
    expect((await trpcQuery<TrpcData<null>>(t, 'auth.me', undefined)).body.result.data).toBeNull();

    const request = await trpcMutation(t, 'auth.requestLogin', {
      email: 'ann@example.com',
      returnUrl: '/settings/user',
    });
    expect(request.status).toBe(200);
    const confirm = await trpcMutation<TrpcData<{ returnUrl: string | null }>>(t, 'auth.confirm', {
      token: loginTokenIn(lastMailTo(t, 'ann@example.com')),
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body.result.data).toEqual({ returnUrl: '/settings/user' });
    expect(sessionSetCookie(confirm)).toMatch(/HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/i);
    const cookie = cookieFrom(confirm);

    const current = await trpcQuery<TrpcData<Me>>(t, 'auth.me', undefined, cookie);
    expect(current.body.result.data).toEqual(await me(t, cookie));
    expect(current.body.result.data.roles).toEqual(['admin', 'user']);

    expect((await trpcMutation(t, 'auth.logout', undefined, cookie)).status).toBe(200);
    expect((await trpcQuery<TrpcData<null>>(t, 'auth.me', undefined, cookie)).body.result.data).toBeNull();
  });

  it('refuses a used token with a 400 and the login-failed message', async () => {
    const t = await makeApp();
    await trpcMutation(t, 'auth.requestLogin', { email: 'ann@example.com' });
    const token = loginTokenIn(lastMailTo(t, 'ann@example.com'));
    await trpcMutation(t, 'auth.confirm', { token });
    const again = await trpcMutation<{ error: { message: string } }>(t, 'auth.confirm', { token });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/Login failed/);
  });
});

describe('/dev/outbox', () => {
  it('lists the mails outside production', async () => {
    const t = await makeApp({ NODE_ENV: 'development' });
    await call(t.server, 'POST', '/api/login', { body: { email: 'ann@example.com' } });
    const page = await call<string>(t.server, 'GET', '/dev/outbox');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Your sign-in link');
    expect(page.body).toContain('to ann@example.com');
    expect(page.body).toMatch(/<a href="http:\/\/localhost:3000\/confirm\?token=/);
    expect(readOutbox(t.dataDir)).toHaveLength(1);
  });

  it('is absent in production', async () => {
    const t = await makeApp({ NODE_ENV: 'production' });
    await call(t.server, 'POST', '/api/login', { body: { email: 'ann@example.com' } });
    expectError(await call(t.server, 'GET', '/dev/outbox', { headers: { accept: 'text/html' } }), 404);
  });
});

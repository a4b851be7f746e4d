import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn, trpcMutation, type TestApp, type TrpcError } from './helpers';

type Method = 'POST' | 'PUT' | 'DELETE';

/** Every JSON-taking REST call of this area, with a path that exists for the signed-in owner. */
function jsonEndpoints(accountId: string): Array<[Method, string]> {
  return [
    ['POST', '/api/login'],
    ['POST', '/api/confirm'],
    ['POST', '/api/switch'],
    ['PUT', `/api/accounts/${accountId}`],
    ['POST', `/api/accounts/${accountId}/invite/accept`],
    ['POST', '/api/accounts/invite'],
    ['POST', '/api/accounts/invite/resend'],
    ['DELETE', '/api/accounts/invite'],
    ['POST', '/api/accounts/role'],
    ['DELETE', '/api/accounts/member'],
    ['PUT', '/api/users'],
  ];
}

async function ownerApp(env: Record<string, string> = {}): Promise<{ t: TestApp; cookie: string; accountId: string }> {
  const t = await makeApp(env);
  const cookie = await signIn(t, 'owner@example.com');
  const me = await call<{ currentAccountId: string }>(t.server, 'GET', '/api/me', { cookie });
  return { t, cookie, accountId: me.body.currentAccountId };
}

function raw(
  t: TestApp,
  method: Method,
  url: string,
  cookie: string,
  payload: string,
  contentType = 'application/json',
) {
  return call(t.server, method, url, { cookie, headers: { 'content-type': contentType }, body: payload });
}

describe('bad input gets a clear 4xx with { message }, never a 500', () => {
  it('malformed JSON is a 400 on every call', async () => {
    const { t, cookie, accountId } = await ownerApp();
    for (const [method, url] of jsonEndpoints(accountId)) {
      const res = await raw(t, method, url, cookie, '{"email": "a@b.co",');
      expect(expectError(res, 400), `${method} ${url}`).toBe('The request body is not valid JSON.');
    }
  });

  it('a missing body, null, an array or a bare string is a 400 naming what is wrong', async () => {
    const { t, cookie, accountId } = await ownerApp();
    for (const [method, url] of jsonEndpoints(accountId)) {
      const none = await call(t.server, method, url, { cookie });
      expect(none.status, `${method} ${url} without body`).toBe(400);
      for (const payload of ['null', '[]', '"text"', '42', '{}']) {
        const res = await raw(t, method, url, cookie, payload);
        const message = expectError(res, 400);
        expect(message.length, `${method} ${url} ${payload}`).toBeGreaterThan(3);
      }
    }
  });

  it('missing and wrong-typed fields name the field', async () => {
    const { t, cookie } = await ownerApp();
    const cases: Array<[Method, string, unknown, RegExp]> = [
      ['POST', '/api/login', {}, /^email: /],
      ['POST', '/api/login', { email: 42 }, /^email: .*expected string/],
      ['POST', '/api/login', { email: 'not-an-address' }, /^email: Provide an email adress$/],
      ['POST', '/api/login', { email: `${'a'.repeat(320)}@x.io` }, /^email: /],
      ['POST', '/api/confirm', { token: 12345678901 }, /^token: /],
      ['POST', '/api/confirm', { token: 'short' }, /^token: /],
      ['POST', '/api/switch', { accountId: { id: 'x' } }, /^accountId: /],
      ['POST', '/api/switch', { accountId: 'x'.repeat(101) }, /^accountId: /],
      ['POST', '/api/accounts/invite', { roles: ['admin'] }, /^email: /],
      ['POST', '/api/accounts/invite', { email: 'b@x.io', roles: 'admin' }, /^roles: /],
      ['POST', '/api/accounts/invite', { email: 'b@x.io', roles: ['emperor'] }, /^roles\.0: /],
      ['POST', '/api/accounts/invite', { email: 'b@x.io', name: ['Bob'] }, /^name: /],
      ['POST', '/api/accounts/role', { userName: 'owner@example.com' }, /^roles: /],
      ['POST', '/api/accounts/role', { userName: true, roles: ['admin'] }, /^userName: /],
      ['DELETE', '/api/accounts/member', { userId: null }, /^userId: /],
      ['DELETE', '/api/accounts/invite', { email: '' }, /^email: /],
      ['PUT', '/api/users', { name: 7 }, /^name: /],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await call(t.server, method, url, { cookie, body });
      expect(expectError(res, 400), `${method} ${url} ${JSON.stringify(body)}`).toMatch(message);
    }
  });

  it('a body over BODY_LIMIT_BYTES is a 413, on REST and tRPC', async () => {
    const { t, cookie } = await ownerApp({ BODY_LIMIT_BYTES: '4096' });
    const huge = JSON.stringify({ email: 'a@b.co', padding: 'x'.repeat(8_000) });
    for (const url of ['/api/login', '/api/accounts/invite', '/trpc/auth.requestLogin']) {
      const res = await raw(t, 'POST', url, cookie, huge);
      expect(expectError(res, 413), url).toBe('The request is too large.');
    }
    const justUnder = JSON.stringify({ name: 'n'.repeat(50), padding: 'x'.repeat(3_900) });
    expect((await raw(t, 'PUT', '/api/users', cookie, justUnder)).status).toBe(200);
  });

  it('an unsupported content type is a 415 and a text body a 400', async () => {
    const { t, cookie } = await ownerApp();
    expectError(await raw(t, 'POST', '/api/login', cookie, '<email/>', 'application/xml'), 415);
    expectError(await raw(t, 'POST', '/api/login', cookie, 'email=a@b.co', 'text/plain'), 400);
  });

  it('a prototype-polluting body is refused', async () => {
    const { t, cookie } = await ownerApp();
    const res = await raw(t, 'PUT', '/api/users', cookie, '{"name":"X","__proto__":{"admin":true}}');
    expectError(res, 400);
  });

  it('an over-long path id is a 4xx with a message', async () => {
    const { t, cookie } = await ownerApp();
    const res = await call(t.server, 'GET', `/api/accounts/${'x'.repeat(500)}`, { cookie });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof (res.body as { message?: unknown }).message).toBe('string');
  });
});

describe('tRPC bad input', () => {
  it('answers 400 with the first problem in words', async () => {
    const t = await makeApp();
    const bad = await trpcMutation<TrpcError>(t, 'auth.requestLogin', { email: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('email: Provide an email adress');
    expect(bad.body.error.data).toEqual({ code: 'BAD_REQUEST', httpStatus: 400 });

    const wrongType = await trpcMutation<TrpcError>(t, 'auth.confirm', { token: 5 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toMatch(/^token: .*expected string/);

    const missing = await trpcMutation<TrpcError>(t, 'auth.requestLogin', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^email: /);
  });

  it('answers 400 to malformed JSON and hides internals', async () => {
    const t = await makeApp();
    const res = await call<TrpcError>(t.server, 'POST', '/trpc/auth.requestLogin', {
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toMatch(/stack|at .*\.ts/);
  });

  it('answers 400 for account-scoped procedures too', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const res = await trpcMutation<TrpcError>(
      t,
      'accounts.changeRoles',
      { userName: 'owner@example.com', roles: [] },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('roles: Choose at least one role.');
  });
});

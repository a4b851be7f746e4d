import { describe, expect, it } from 'vitest';
import type { AdminAccount, AdminUser } from '../../src/shared/admin';
import {
  call,
  makeApp,
  makeTeam,
  me,
  signIn,
  trpcMutation,
  trpcQuery,
  type TestApp,
  type TrpcData,
  type TrpcError,
} from './helpers';

/** The first user (global admin, in a team of three) and Zoe, a plain user of her own account. */
async function adminApp(): Promise<{ t: TestApp; admin: string; zoe: string; teamAccountId: string }> {
  const t = await makeApp({ SIGNUP: 'open' });
  const team = await makeTeam(t);
  const zoe = await signIn(t, 'zoe_100%@example.com');
  await call(t.server, 'PUT', `/api/accounts/${(await me(t, zoe)).currentAccountId}`, {
    cookie: zoe,
    body: { name: 'Zoe 100% Analytics' },
  });
  return { t, admin: team.owner.cookie, zoe, teamAccountId: team.accountId };
}

describe('admin.searchUsers', () => {
  it('finds users by e-mail or name for a global admin', async () => {
    const { t, admin } = await adminApp();
    const res = await trpcQuery<TrpcData<AdminUser[]>>(t, 'admin.searchUsers', { query: 'ADMIN@' }, admin);
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual([
      {
        id: expect.any(String),
        email: 'admin@example.com',
        name: 'Admin',
        roles: ['user'],
        createdAt: t.clock.now().toISOString(),
        lastLoginAt: t.clock.now().toISOString(),
        accountCount: 1,
      },
    ]);
    const all = await trpcQuery<TrpcData<AdminUser[]>>(t, 'admin.searchUsers', { query: '' }, admin);
    expect(all.body.result.data.map((u) => u.email)).toEqual([
      'admin@example.com',
      'owner@example.com',
      'reader@example.com',
      'zoe_100%@example.com',
    ]);
    expect(all.body.result.data.find((u) => u.email === 'owner@example.com')?.roles).toEqual(['admin', 'user']);
  });

  it('takes % and _ literally', async () => {
    const { t, admin } = await adminApp();
    const percent = await trpcQuery<TrpcData<AdminUser[]>>(t, 'admin.searchUsers', { query: '100%' }, admin);
    expect(percent.body.result.data.map((u) => u.email)).toEqual(['zoe_100%@example.com']);
    const underscore = await trpcQuery<TrpcData<AdminUser[]>>(t, 'admin.searchUsers', { query: 'r_' }, admin);
    expect(underscore.body.result.data).toEqual([]);
  });
});

describe('admin.searchAccounts', () => {
  it('finds accounts by name or exact id, with member counts', async () => {
    const { t, admin, teamAccountId } = await adminApp();
    const byName = await trpcQuery<TrpcData<AdminAccount[]>>(t, 'admin.searchAccounts', { query: 'owner' }, admin);
    expect(byName.body.result.data).toEqual([
      { id: teamAccountId, name: "Owner's account", createdAt: t.clock.now().toISOString(), memberCount: 3 },
    ]);
    const byId = await trpcQuery<TrpcData<AdminAccount[]>>(t, 'admin.searchAccounts', { query: teamAccountId }, admin);
    expect(byId.body.result.data.map((a) => a.id)).toEqual([teamAccountId]);
    const literal = await trpcQuery<TrpcData<AdminAccount[]>>(t, 'admin.searchAccounts', { query: '100%' }, admin);
    expect(literal.body.result.data.map((a) => a.name)).toEqual(['Zoe 100% Analytics']);
  });
});

describe('admin procedures are for global admins only', () => {
  it.each(['admin.searchUsers', 'admin.searchAccounts'])(
    '%s is FORBIDDEN for others and 401 signed out',
    async (path) => {
      const { t, zoe } = await adminApp();
      const forbidden = await trpcQuery<TrpcError>(t, path, { query: '' }, zoe);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.data.code).toBe('FORBIDDEN');
      expect(forbidden.body.error.message).toBe('You are not allowed to do this.');
      expect(JSON.stringify(forbidden.body)).not.toContain('example.com');

      const signedOut = await trpcQuery<TrpcError>(t, path, { query: '' });
      expect(signedOut.status).toBe(401);
      expect(signedOut.body.error.data.code).toBe('UNAUTHORIZED');
    },
  );

  it('every admin call, tRPC and REST, is 403 for others and 401 signed out, and changes nothing', async () => {
    const { t, admin, zoe, teamAccountId } = await adminApp();
    const zoeId = (await me(t, zoe)).id;
    const spec = JSON.stringify({ settings: { properties: {} } });
    const queries: [string, unknown][] = [
      ['admin.user', { userId: zoeId }],
      ['admin.account', { accountId: teamAccountId }],
      ['admin.definitions', undefined],
    ];
    const mutations: [string, unknown][] = [
      ['admin.signOutEverywhere', { userId: zoeId }],
      ['admin.setGlobalAdmin', { userId: zoeId, admin: true }],
      ['admin.validateSpecification', { specification: spec }],
      ['admin.createDefinition', { name: 'Mine', specification: spec }],
    ];
    for (const cookie of [zoe, undefined]) {
      const expected = cookie ? 403 : 401;
      for (const [path, input] of queries)
        expect((await trpcQuery(t, path, input, cookie)).status, path).toBe(expected);
      for (const [path, input] of mutations)
        expect((await trpcMutation(t, path, input, cookie)).status, path).toBe(expected);
    }
    const rest: ['GET' | 'POST' | 'PUT', string, unknown?][] = [
      ['GET', '/api/admin/users?query=a'],
      ['GET', `/api/admin/users/${zoeId}`],
      ['POST', `/api/admin/users/${zoeId}/sign-out-everywhere`, {}],
      ['PUT', `/api/admin/users/${zoeId}/admin`, { admin: true }],
      ['GET', '/api/admin/accounts?query=a'],
      ['GET', `/api/admin/accounts/${teamAccountId}`],
      ['GET', '/api/admin/integration_definitions'],
      ['POST', '/api/admin/integration_definitions/validate', { specification: spec }],
      ['POST', '/api/admin/integration_definitions', { name: 'Mine', specification: spec }],
    ];
    for (const cookie of [zoe, undefined]) {
      for (const [method, url, body] of rest) {
        const res = await call(t.server, method, url, { cookie, body });
        expect(res.status, `${method} ${url}`).toBe(cookie ? 403 : 401);
        expect(JSON.stringify(res.body)).not.toContain('example.com');
      }
    }
    // Zoe is still signed in, still no admin, and no definition was added.
    const zoeNow = await me(t, zoe);
    expect(zoeNow.roles).toEqual(['user']);
    const names = await call<{ name: string }[]>(t.server, 'GET', '/api/admin/integration_definitions', {
      cookie: admin,
    });
    expect(names.body.map((d) => d.name)).not.toContain('Mine');
  });

  it('an account owner who is not a global admin is refused too', async () => {
    const { t } = await adminApp();
    const owner = await signIn(t, 'someone@example.com');
    expect((await me(t, owner)).accounts[0]?.roles).toEqual(['owner']);
    expect((await trpcQuery(t, 'admin.searchUsers', { query: '' }, owner)).status).toBe(403);
  });
});

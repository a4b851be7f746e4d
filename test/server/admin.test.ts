import { describe, expect, it } from 'vitest';
import type { AdminAccount, AdminUser } from '../../src/shared/admin';
import { call, makeApp, makeTeam, me, signIn, trpcQuery, type TestApp, type TrpcData, type TrpcError } from './helpers';

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

  it('an account owner who is not a global admin is refused too', async () => {
    const { t } = await adminApp();
    const owner = await signIn(t, 'someone@example.com');
    expect((await me(t, owner)).accounts[0]?.roles).toEqual(['owner']);
    expect((await trpcQuery(t, 'admin.searchUsers', { query: '' }, owner)).status).toBe(403);
  });
});

import { describe, expect, it } from 'vitest';
import type { Me } from '../../src/shared/auth';
import {
  addMember,
  call,
  expectError,
  getAccount,
  invite,
  makeApp,
  makeTeam,
  me,
  rolesOf,
  signIn,
  trpcMutation,
} from './helpers';

/**
 * Two accounts: A (a team) and B (Carl's own, by open sign-up). Carl is also admin in A, and
 * invites Bea while A is his current account, so Bea joins A.
 */
async function twoAccounts() {
  const t = await makeApp({ SIGNUP: 'open' });
  const a = await makeTeam(t, 'a-');
  const carlCookie = await signIn(t, 'carl@example.com');
  const accountB = (await me(t, carlCookie)).currentAccountId ?? '';
  const carl = await addMember(t, a.owner.cookie, 'carl@example.com', ['admin']);
  const bea = await addMember(t, carl.cookie, 'bea@example.com', ['read_only']);
  return { t, a, accountB, carl, bea };
}

describe('switching accounts', () => {
  it('POST /api/switch makes the account current and answers the current user', async () => {
    const { t, a, accountB, carl } = await twoAccounts();
    // Accepting A's invitation landed Carl in A.
    expect((await me(t, carl.cookie)).currentAccountId).toBe(a.accountId);

    t.clock.advance(60_000);
    const res = await call<Me>(t.server, 'POST', '/api/switch', { cookie: carl.cookie, body: { accountId: accountB } });
    expect(res.status).toBe(200);
    expect(res.body.currentAccountId).toBe(accountB);
    expect(res.body.accounts.find((x) => x.id === accountB)?.lastLoginAt).toBe(t.clock.now().toISOString());
    expect(await me(t, carl.cookie)).toEqual(res.body);
  });

  it('scopes later invite, role and member calls to the new current account', async () => {
    const { t, a, accountB, carl, bea } = await twoAccounts();
    expect(rolesOf(await getAccount(t, a.owner.cookie, a.accountId), bea.email)).toEqual(['read_only']);

    await call(t.server, 'POST', '/api/switch', { cookie: carl.cookie, body: { accountId: accountB } });
    await invite(t, carl.cookie, 'dan@example.com');
    expect((await getAccount(t, carl.cookie, accountB)).invitations.map((i) => i.email)).toEqual(['dan@example.com']);
    expect((await getAccount(t, carl.cookie, a.accountId)).invitations).toEqual([]);

    // Bea is a member of A only: from B she is not found, and her roles in A stay.
    const role = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: carl.cookie,
      body: { userName: bea.email, roles: ['admin'] },
    });
    expectError(role, 404);
    const remove = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie: carl.cookie,
      body: { userId: a.readOnly.userId },
    });
    expectError(remove, 404);
    expect(rolesOf(await getAccount(t, a.owner.cookie, a.accountId), bea.email)).toEqual(['read_only']);

    await call(t.server, 'POST', '/api/switch', { cookie: carl.cookie, body: { accountId: a.accountId } });
    const roleInA = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: carl.cookie,
      body: { userName: bea.email, roles: ['admin'] },
    });
    expect(roleInA.status).toBe(204);
    expect(rolesOf(await getAccount(t, a.owner.cookie, a.accountId), bea.email)).toEqual(['admin']);
  });

  it('uses the roles of the current account: admin in A, but read_only in B', async () => {
    const { t, a, carl } = await twoAccounts();
    const b = await makeTeam(t, 'b-');
    const carlInB = await addMember(t, b.owner.cookie, 'carl@example.com', ['read_only']);
    expect((await me(t, carlInB.cookie)).currentAccountId).toBe(b.accountId);
    expectError(
      await call(t.server, 'POST', '/api/accounts/invite', { cookie: carl.cookie, body: { email: 'z@example.com' } }),
      403,
    );
    await call(t.server, 'POST', '/api/switch', { cookie: carl.cookie, body: { accountId: a.accountId } });
    const res = await call(t.server, 'POST', '/api/accounts/invite', {
      cookie: carl.cookie,
      body: { email: 'z@example.com' },
    });
    expect(res.status).toBe(204);
  });

  it('switches through tRPC too, and refuses an account the user is not in', async () => {
    const { t, accountB, a } = await twoAccounts();
    const res = await trpcMutation(t, 'accounts.switch', { accountId: accountB }, a.owner.cookie);
    expect(res.status).toBe(404);
    expect((await me(t, a.owner.cookie)).currentAccountId).toBe(a.accountId);
  });

  it('needs a session', async () => {
    const { t, accountB } = await twoAccounts();
    expectError(await call(t.server, 'POST', '/api/switch', { body: { accountId: accountB } }), 401);
  });
});

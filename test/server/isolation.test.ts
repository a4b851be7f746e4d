import { describe, expect, it } from 'vitest';
import {
  acceptInvite,
  call,
  expectError,
  getAccount,
  invite,
  mailsTo,
  makeApp,
  makeTeam,
  me,
  rolesOf,
  signIn,
  trpcMutation,
  trpcQuery,
  type Member,
  type Team,
  type TestApp,
} from './helpers';

/** Two separate teams, A and B, of plain users (the global admin is someone else). */
async function twoTeams(): Promise<{ t: TestApp; a: Team; b: Team }> {
  const t = await makeApp({ SIGNUP: 'open' });
  await signIn(t, 'root@example.com');
  const a = await makeTeam(t, 'a-');
  const b = await makeTeam(t, 'b-');
  return { t, a, b };
}

const NOT_FOUND = { message: 'Account not found.' };

/** The account-B paths that are refused before any role check, so every member of A gets 404. */
async function expectPathsHidden(t: TestApp, member: Member, b: Team, aInviteToken: string): Promise<void> {
  const { cookie } = member;
  const get = await call(t.server, 'GET', `/api/accounts/${b.accountId}`, { cookie });
  expect(get.status).toBe(404);
  expect(get.body).toEqual(NOT_FOUND);
  // Same answer as for an id that does not exist at all.
  expect((await call(t.server, 'GET', '/api/accounts/no-such-account', { cookie })).body).toEqual(NOT_FOUND);

  const put = await call(t.server, 'PUT', `/api/accounts/${b.accountId}`, {
    cookie,
    body: { accountId: b.accountId, name: 'Hijacked' },
  });
  expect(put.status).toBe(404);
  expect(put.body).toEqual(NOT_FOUND);

  const accept = await call(t.server, 'POST', `/api/accounts/${b.accountId}/invite/accept`, {
    cookie,
    body: { token: aInviteToken },
  });
  expectError(accept, 404);

  const switched = await call(t.server, 'POST', '/api/switch', { cookie, body: { accountId: b.accountId } });
  expect(switched.status).toBe(404);
  expect(switched.body).toEqual(NOT_FOUND);

  const trpcGet = await trpcQuery(t, 'accounts.get', { accountId: b.accountId }, cookie);
  expect(trpcGet.status).toBe(404);
  const trpcRename = await trpcMutation(t, 'accounts.rename', { accountId: b.accountId, name: 'Hijacked' }, cookie);
  expect(trpcRename.status).toBe(404);
}

/** B is exactly as it was made: same name, members, roles and pending invitation. */
async function expectBUntouched(t: TestApp, b: Team): Promise<void> {
  const account = await getAccount(t, b.owner.cookie, b.accountId);
  expect(account.name).toBe("B Owner's account");
  expect(account.members.map((m) => [m.username, m.roles])).toEqual([
    [b.admin.email, ['admin']],
    [b.owner.email, ['owner']],
    [b.readOnly.email, ['read_only']],
  ]);
  expect(account.invitations.map((i) => i.email)).toEqual(['b-pending@example.com']);
  expect(mailsTo(t, 'b-pending@example.com')).toHaveLength(1);
  expect((await me(t, b.owner.cookie)).currentAccountId).toBe(b.accountId);
}

describe('a member of account A gets 404 for every account-B path', () => {
  it.each(['owner', 'admin'] as const)('as the %s of A', async (role) => {
    const { t, a, b } = await twoTeams();
    await invite(t, b.owner.cookie, 'b-pending@example.com');
    const aInvite = await invite(t, a.owner.cookie, 'a-pending@example.com');
    const member = role === 'owner' ? a.owner : a.admin;

    await expectPathsHidden(t, member, b, aInvite.token);

    const { cookie } = member;
    const remove = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie,
      body: { userId: b.readOnly.userId },
    });
    expect(expectError(remove, 404)).toBe('Member not found.');
    const removeOwner = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie,
      body: { userId: b.owner.userId },
    });
    expectError(removeOwner, 404);
    const role2 = await call(t.server, 'POST', '/api/accounts/role', {
      cookie,
      body: { userName: b.readOnly.email, roles: ['owner'] },
    });
    expect(expectError(role2, 404)).toBe('Member not found.');
    const cancel = await call(t.server, 'DELETE', '/api/accounts/invite', {
      cookie,
      body: { email: 'b-pending@example.com' },
    });
    expect(expectError(cancel, 404)).toBe('Invitation not found.');
    const resend = await call(t.server, 'POST', '/api/accounts/invite/resend', {
      cookie,
      body: { email: 'b-pending@example.com' },
    });
    expectError(resend, 404);

    await expectBUntouched(t, b);
    // A's own invitation still works: the failed accept with B's id did not spend it.
    const newcomer = await acceptInvite(t, aInvite);
    expect((await me(t, newcomer)).currentAccountId).toBe(a.accountId);
    expect(rolesOf(await getAccount(t, a.owner.cookie, a.accountId), 'a-pending@example.com')).toEqual(['read_only']);
  });

  it('as a read_only member of A (account-B paths 404, writes refused before reaching B)', async () => {
    const { t, a, b } = await twoTeams();
    await invite(t, b.owner.cookie, 'b-pending@example.com');
    const aInvite = await invite(t, a.owner.cookie, 'a-pending@example.com');
    await expectPathsHidden(t, a.readOnly, b, aInvite.token);
    const remove = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie: a.readOnly.cookie,
      body: { userId: b.readOnly.userId },
    });
    expectError(remove, 403);
    await expectBUntouched(t, b);
  });

  it("B's invitation token does not work with A's id", async () => {
    const { t, a, b } = await twoTeams();
    const bInvite = await invite(t, b.owner.cookie, 'x@example.com');
    const res = await call(t.server, 'POST', `/api/accounts/${a.accountId}/invite/accept`, {
      body: { token: bInvite.token },
    });
    expectError(res, 404);
    expect((await getAccount(t, a.owner.cookie, a.accountId)).members.map((m) => m.username)).not.toContain(
      'x@example.com',
    );
  });
});

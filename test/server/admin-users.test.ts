import { describe, expect, it } from 'vitest';
import type { AdminUserDetail, SignOutEverywhereAnswer } from '../../src/shared/admin';
import { ADMIN_MESSAGES } from '../../src/shared/admin';
import {
  acceptInvite,
  call,
  cookieFrom,
  expectError,
  makeApp,
  invite,
  makeTeam,
  me,
  requestLoginToken,
  signIn,
  trpcMutation,
  trpcQuery,
  type TestApp,
  type TrpcData,
  type TrpcError,
} from './helpers';

/** Signs in as a browser naming itself `userAgent`, so the session keeps it. */
async function signInAs(t: TestApp, email: string, userAgent: string): Promise<string> {
  const token = await requestLoginToken(t, email);
  const res = await call(t.server, 'POST', '/api/confirm', { body: { token }, headers: { 'user-agent': userAgent } });
  expect(res.status).toBe(200);
  return cookieFrom(res);
}

const userOf = async (t: TestApp, cookie: string, userId: string) =>
  (await trpcQuery<TrpcData<AdminUserDetail>>(t, 'admin.user', { userId }, cookie)).body.result.data;

describe('admin user detail', () => {
  it("shows a user's accounts with roles and their live sessions with the browser that opened them", async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    const team = await makeTeam(t);
    const other = await signIn(t, 'other@example.com');
    const otherAccount = (await me(t, other)).currentAccountId;
    await call(t.server, 'PUT', `/api/accounts/${otherAccount}`, { cookie: other, body: { name: 'Beta' } });
    await acceptInvite(t, await invite(t, other, 'reader@example.com', ['admin']));
    t.clock.advance(60_000);
    await signInAs(t, 'reader@example.com', 'Mozilla/5.0 (X11; Linux x86_64) Chromium/140');

    const res = await trpcQuery<TrpcData<AdminUserDetail>>(
      t,
      'admin.user',
      { userId: team.readOnly.userId },
      team.owner.cookie,
    );
    expect(res.status).toBe(200);
    const user = res.body.result.data;
    expect(user).toMatchObject({
      id: team.readOnly.userId,
      email: 'reader@example.com',
      roles: ['user'],
      isAdmin: false,
      accounts: [
        { id: otherAccount, name: 'Beta', roles: ['admin'] },
        { id: team.accountId, name: "Owner's account", roles: ['read_only'] },
      ],
    });
    // Three sessions (two invite acceptances and the sign-in above), newest first.
    expect(user.sessions).toHaveLength(3);
    expect(user.sessions[0]).toEqual({
      createdAt: t.clock.now().toISOString(),
      lastSeenAt: t.clock.now().toISOString(),
      expiresAt: expect.any(String),
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chromium/140',
    });

    // The same through REST, and an unknown user is a 404.
    const rest = await call<AdminUserDetail>(t.server, 'GET', `/api/admin/users/${team.readOnly.userId}`, {
      cookie: team.owner.cookie,
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(user);
    expect(
      expectError(await call(t.server, 'GET', '/api/admin/users/nobody', { cookie: team.owner.cookie }), 404),
    ).toBe(ADMIN_MESSAGES.userNotFound);
  });
});

describe('sign out everywhere', () => {
  it("revokes every session of the user: each one's next request is 401, other users stay signed in", async () => {
    const t = await makeApp();
    const team = await makeTeam(t);
    const laptop = team.readOnly.cookie;
    const phone = await signInAs(t, 'reader@example.com', 'Phone');
    for (const cookie of [laptop, phone]) expect((await call(t.server, 'GET', '/api/me', { cookie })).status).toBe(200);

    const res = await trpcMutation<TrpcData<SignOutEverywhereAnswer>>(
      t,
      'admin.signOutEverywhere',
      { userId: team.readOnly.userId },
      team.owner.cookie,
    );
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({ revoked: 2 });

    for (const cookie of [laptop, phone]) {
      expect((await call(t.server, 'GET', '/api/me', { cookie })).status).toBe(401);
      const trpc = await trpcQuery<TrpcError>(t, 'integrations.list', undefined, cookie);
      expect(trpc.status).toBe(401);
    }
    expect((await userOf(t, team.owner.cookie, team.readOnly.userId)).sessions).toEqual([]);
    // The admin and the account's other members keep their sessions.
    expect((await call(t.server, 'GET', '/api/me', { cookie: team.owner.cookie })).status).toBe(200);
    expect((await call(t.server, 'GET', '/api/me', { cookie: team.admin.cookie })).status).toBe(200);

    // Nothing left to revoke; REST answers the same call.
    const again = await call<SignOutEverywhereAnswer>(
      t.server,
      'POST',
      `/api/admin/users/${team.readOnly.userId}/sign-out-everywhere`,
      { cookie: team.owner.cookie, body: {} },
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ revoked: 0 });
    // A new sign-in works as usual.
    const back = await signIn(t, 'reader@example.com');
    expect((await call(t.server, 'GET', '/api/me', { cookie: back })).status).toBe(200);
  });
});

describe('the global admin role', () => {
  it('is granted and taken by admins, and the last admin cannot lose it', async () => {
    const t = await makeApp();
    const team = await makeTeam(t);
    const owner = team.owner;
    const setAdmin = (cookie: string, userId: string, admin: boolean) =>
      trpcMutation<TrpcData<AdminUserDetail> & TrpcError>(t, 'admin.setGlobalAdmin', { userId, admin }, cookie);

    // The only admin cannot remove their own role.
    const last = await setAdmin(owner.cookie, owner.userId, false);
    expect(last.status).toBe(409);
    expect(last.body.error.message).toBe(ADMIN_MESSAGES.lastAdmin);
    expect((await userOf(t, owner.cookie, owner.userId)).isAdmin).toBe(true);

    // Granting makes the reader an admin: the admin calls open for them.
    expect((await trpcQuery(t, 'admin.searchUsers', { query: '' }, team.readOnly.cookie)).status).toBe(403);
    const granted = await setAdmin(owner.cookie, team.readOnly.userId, true);
    expect(granted.status).toBe(200);
    expect(granted.body.result.data).toMatchObject({ isAdmin: true, roles: ['admin', 'user'] });
    expect((await trpcQuery(t, 'admin.searchUsers', { query: '' }, team.readOnly.cookie)).status).toBe(200);
    // Granting again changes nothing.
    expect((await setAdmin(owner.cookie, team.readOnly.userId, true)).body.result.data.roles).toEqual([
      'admin',
      'user',
    ]);

    // With two admins, the owner may step down (REST this time); then the reader is the last one.
    const stepDown = await call<AdminUserDetail>(t.server, 'PUT', `/api/admin/users/${owner.userId}/admin`, {
      cookie: owner.cookie,
      body: { admin: false },
    });
    expect(stepDown.status).toBe(200);
    expect(stepDown.body).toMatchObject({ isAdmin: false, roles: ['user'] });
    expect((await trpcQuery(t, 'admin.searchUsers', { query: '' }, owner.cookie)).status).toBe(403);
    expect((await setAdmin(owner.cookie, owner.userId, true)).status).toBe(403);

    const lastAgain = await call(t.server, 'PUT', `/api/admin/users/${team.readOnly.userId}/admin`, {
      cookie: team.readOnly.cookie,
      body: { admin: false },
    });
    expect(expectError(lastAgain, 409)).toBe(ADMIN_MESSAGES.lastAdmin);
    expect((await userOf(t, team.readOnly.cookie, team.readOnly.userId)).isAdmin).toBe(true);
  });
});

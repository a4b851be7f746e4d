import { describe, expect, it } from 'vitest';
import {
  acceptInvite,
  addMember,
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
  type Team,
  type TestApp,
  type TrpcError,
} from './helpers';

/**
 * An app whose first user (the global admin) is outside the team, so the team's owner is a plain
 * user and only its member roles count.
 */
async function appWithTeam(): Promise<{ t: TestApp; team: Team; rootCookie: string }> {
  const t = await makeApp({ SIGNUP: 'open' });
  const rootCookie = await signIn(t, 'root@example.com');
  const team = await makeTeam(t);
  expect((await me(t, team.owner.cookie)).roles).toEqual(['user']);
  return { t, team, rootCookie };
}

type Actor = 'owner' | 'admin' | 'global admin (read_only member)';

/** The cookie acting as `actor`; the global admin joins the team as a read_only member first. */
async function actorCookie(t: TestApp, team: Team, actor: Actor): Promise<{ cookie: string; userId: string }> {
  if (actor === 'owner') return team.owner;
  if (actor === 'admin') return team.admin;
  const root = await addMember(t, team.owner.cookie, 'root@example.com', ['read_only']);
  expect((await me(t, root.cookie)).roles).toEqual(['admin', 'user']);
  return root;
}

describe('managers: owner, admin, or a global admin', () => {
  it.each<Actor>(['owner', 'admin', 'global admin (read_only member)'])(
    '%s invites, resends, cancels, changes roles, removes others and renames',
    async (actor) => {
      const { t, team } = await appWithTeam();
      const { cookie } = await actorCookie(t, team, actor);

      await invite(t, cookie, 'new@example.com', ['admin']);
      const resend = await call(t.server, 'POST', '/api/accounts/invite/resend', {
        cookie,
        body: { email: 'new@example.com' },
      });
      expect(resend.status).toBe(204);
      expect(mailsTo(t, 'new@example.com')).toHaveLength(2);
      const cancel = await call(t.server, 'DELETE', '/api/accounts/invite', {
        cookie,
        body: { email: 'new@example.com' },
      });
      expect(cancel.status).toBe(204);

      const role = await call(t.server, 'POST', '/api/accounts/role', {
        cookie,
        body: { userName: team.readOnly.email, roles: ['admin', 'admin'] },
      });
      expect(role.status).toBe(204);
      expect(rolesOf(await getAccount(t, cookie, team.accountId), team.readOnly.email)).toEqual(['admin']);

      const remove = await call(t.server, 'DELETE', '/api/accounts/member', {
        cookie,
        body: { userId: team.readOnly.userId },
      });
      expect(remove.status).toBe(204);

      const rename = await call(t.server, 'PUT', `/api/accounts/${team.accountId}`, {
        cookie,
        body: { accountId: team.accountId, name: '  Data Team  ' },
      });
      expect(rename.status).toBe(200);
      expect(rename.body).toEqual({ id: team.accountId, name: 'Data Team' });

      const account = await getAccount(t, team.owner.cookie, team.accountId);
      expect(account.name).toBe('Data Team');
      expect(account.invitations).toEqual([]);
      expect(account.members.map((m) => m.username)).not.toContain(team.readOnly.email);
      // The removed member no longer sees the account.
      expectError(
        await call(t.server, 'GET', `/api/accounts/${team.accountId}`, { cookie: team.readOnly.cookie }),
        404,
      );
      expect((await me(t, team.readOnly.cookie)).currentAccountId).toBeNull();
    },
  );
});

describe('read_only members change nothing', () => {
  it('gets 403 for invite, resend, cancel, role change, member removal and rename', async () => {
    const { t, team } = await appWithTeam();
    await invite(t, team.owner.cookie, 'pending@example.com');
    const cookie = team.readOnly.cookie;
    const attempts = [
      call(t.server, 'POST', '/api/accounts/invite', { cookie, body: { email: 'x@example.com', roles: ['owner'] } }),
      call(t.server, 'POST', '/api/accounts/invite/resend', { cookie, body: { email: 'pending@example.com' } }),
      call(t.server, 'DELETE', '/api/accounts/invite', { cookie, body: { email: 'pending@example.com' } }),
      call(t.server, 'POST', '/api/accounts/role', {
        cookie,
        body: { userName: team.readOnly.email, roles: ['owner'] },
      }),
      call(t.server, 'POST', '/api/accounts/role', {
        cookie,
        body: { userName: team.admin.email, roles: ['read_only'] },
      }),
      call(t.server, 'DELETE', '/api/accounts/member', { cookie, body: { userId: team.admin.userId } }),
      call(t.server, 'PUT', `/api/accounts/${team.accountId}`, {
        cookie,
        body: { accountId: team.accountId, name: 'X' },
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(expectError(res, 403)).toBe('Your role in this account is read only.');
    }

    const account = await getAccount(t, cookie, team.accountId);
    expect(account.name).toBe("Owner's account");
    expect(account.invitations.map((i) => i.email)).toEqual(['pending@example.com']);
    expect(rolesOf(account, team.readOnly.email)).toEqual(['read_only']);
    expect(rolesOf(account, team.admin.email)).toEqual(['admin']);
    expect(mailsTo(t, 'x@example.com')).toEqual([]);
    expect(mailsTo(t, 'pending@example.com')).toHaveLength(1);
  });

  it('may still read the account and rename themselves', async () => {
    const { t, team } = await appWithTeam();
    const account = await getAccount(t, team.readOnly.cookie, team.accountId);
    expect(account.members).toHaveLength(3);
    const res = await call(t.server, 'PUT', '/api/users', {
      cookie: team.readOnly.cookie,
      body: { name: 'Rita Reader' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Rita Reader' });
    expect((await me(t, team.readOnly.cookie)).name).toBe('Rita Reader');
    const members = (await getAccount(t, team.owner.cookie, team.accountId)).members;
    expect(members.find((m) => m.username === team.readOnly.email)?.name).toBe('Rita Reader');
  });
});

describe('guard rails', () => {
  it.each<Actor>(['owner', 'admin', 'global admin (read_only member)'])(
    '%s cannot remove themselves',
    async (actor) => {
      const { t, team } = await appWithTeam();
      const { cookie, userId } = await actorCookie(t, team, actor);
      const res = await call(t.server, 'DELETE', '/api/accounts/member', { cookie, body: { userId } });
      expect(expectError(res, 403)).toBe('You cannot remove yourself from the account.');
      expect((await getAccount(t, cookie, team.accountId)).members.map((m) => m.id)).toContain(userId);
    },
  );

  it('keeps at least one owner: the only owner stepping down is a 409', async () => {
    const { t, team } = await appWithTeam();
    const demoteSelf = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: team.owner.cookie,
      body: { userName: team.owner.email, roles: ['admin'] },
    });
    expect(expectError(demoteSelf, 409)).toBe('An account must keep at least one owner.');
    // A global admin may touch owners, but not leave the account without one either.
    const root = await actorCookie(t, team, 'global admin (read_only member)');
    const demoteByRoot = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: root.cookie,
      body: { userName: team.owner.email, roles: ['read_only'] },
    });
    expect(expectError(demoteByRoot, 409)).toBe('An account must keep at least one owner.');
    const removeByRoot = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie: root.cookie,
      body: { userId: team.owner.userId },
    });
    expect(expectError(removeByRoot, 409)).toBe('An account must keep at least one owner.');
    expect(rolesOf(await getAccount(t, team.owner.cookie, team.accountId), team.owner.email)).toEqual(['owner']);
  });

  it('lets an owner step down or be removed once another owner exists', async () => {
    const { t, team } = await appWithTeam();
    const promote = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: team.owner.cookie,
      body: { userName: team.admin.email, roles: ['owner'] },
    });
    expect(promote.status).toBe(204);
    const stepDown = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: team.owner.cookie,
      body: { userName: team.owner.email, roles: ['admin'] },
    });
    expect(stepDown.status).toBe(204);
    const remove = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie: team.admin.cookie,
      body: { userId: team.owner.userId },
    });
    expect(remove.status).toBe(204);
    const account = await getAccount(t, team.admin.cookie, team.accountId);
    expect(account.members.map((m) => [m.username, m.roles])).toEqual([
      [team.admin.email, ['owner']],
      [team.readOnly.email, ['read_only']],
    ]);
  });

  it('answers 404 for a role change or removal of someone who is not a member', async () => {
    const { t, team } = await appWithTeam();
    const role = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: team.owner.cookie,
      body: { userName: 'nobody@example.com', roles: ['admin'] },
    });
    expect(expectError(role, 404)).toBe('Member not found.');
    const remove = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie: team.owner.cookie,
      body: { userId: 'no-such-user' },
    });
    expectError(remove, 404);
  });

  it('refuses an empty or unknown role list with a 400', async () => {
    const { t, team } = await appWithTeam();
    for (const roles of [[], ['boss'], 'owner']) {
      const res = await call(t.server, 'POST', '/api/accounts/role', {
        cookie: team.owner.cookie,
        body: { userName: team.readOnly.email, roles },
      });
      expect(expectError(res, 400)).toMatch(/^roles/);
    }
  });

  it('refuses a rename whose body names another account', async () => {
    const { t, team } = await appWithTeam();
    const res = await call(t.server, 'PUT', `/api/accounts/${team.accountId}`, {
      cookie: team.owner.cookie,
      body: { accountId: 'another-id', name: 'New' },
    });
    expectError(res, 400);
    const blank = await call(t.server, 'PUT', `/api/accounts/${team.accountId}`, {
      cookie: team.owner.cookie,
      body: { name: '   ' },
    });
    expect(expectError(blank, 400)).toBe('name: Name cannot be empty.');
  });
});

describe('global admin', () => {
  it('reads and renames an account they are not a member of', async () => {
    const { t, team, rootCookie } = await appWithTeam();
    expect((await getAccount(t, rootCookie, team.accountId)).members).toHaveLength(3);
    const res = await call(t.server, 'PUT', `/api/accounts/${team.accountId}`, {
      cookie: rootCookie,
      body: { accountId: team.accountId, name: 'Renamed by admin' },
    });
    expect(res.status).toBe(200);
    expect((await getAccount(t, team.owner.cookie, team.accountId)).name).toBe('Renamed by admin');
  });
});

describe('users', () => {
  it('PUT /api/users renames only the caller, and needs a name and a session', async () => {
    const t = await makeApp();
    const ann = await signIn(t, 'ann@example.com');
    const res = await call(t.server, 'PUT', '/api/users', { cookie: ann, body: { name: '  Ann Lee ' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Ann Lee' });
    expect((await me(t, ann)).name).toBe('Ann Lee');
    expect(expectError(await call(t.server, 'PUT', '/api/users', { cookie: ann, body: { name: '' } }), 400)).toBe(
      'name: Name cannot be empty.',
    );
    expectError(await call(t.server, 'PUT', '/api/users', { cookie: ann, body: { name: 'x'.repeat(101) } }), 400);
    expectError(await call(t.server, 'PUT', '/api/users', { body: { name: 'Mallory' } }), 401);
    expect((await me(t, ann)).name).toBe('Ann Lee');
  });
});

/** POST /api/accounts/role over REST, or accounts.changeRoles over tRPC, as `{ status, message }`. */
async function changeRoles(
  t: TestApp,
  via: 'REST' | 'tRPC',
  cookie: string,
  userName: string,
  roles: string[],
): Promise<{ status: number; message?: string }> {
  if (via === 'REST') {
    const res = await call<{ message?: string }>(t.server, 'POST', '/api/accounts/role', {
      cookie,
      body: { userName, roles },
    });
    return { status: res.status, message: res.body.message };
  }
  const res = await trpcMutation<TrpcError>(t, 'accounts.changeRoles', { userName, roles }, cookie);
  return { status: res.status, message: res.status === 200 ? undefined : res.body.error.message };
}

async function removeMember(
  t: TestApp,
  via: 'REST' | 'tRPC',
  cookie: string,
  userId: string,
): Promise<{ status: number; message?: string }> {
  if (via === 'REST') {
    const res = await call<{ message?: string }>(t.server, 'DELETE', '/api/accounts/member', {
      cookie,
      body: { userId },
    });
    return { status: res.status, message: res.body.message };
  }
  const res = await trpcMutation<TrpcError>(t, 'accounts.removeMember', { userId }, cookie);
  return { status: res.status, message: res.status === 200 ? undefined : res.body.error.message };
}

async function inviteAs(
  t: TestApp,
  via: 'REST' | 'tRPC',
  cookie: string,
  email: string,
  roles: string[],
): Promise<{ status: number; message?: string }> {
  if (via === 'REST') {
    const res = await call<{ message?: string }>(t.server, 'POST', '/api/accounts/invite', {
      cookie,
      body: { email, roles },
    });
    return { status: res.status, message: res.body.message };
  }
  const res = await trpcMutation<TrpcError>(t, 'accounts.invite', { email, roles }, cookie);
  return { status: res.status, message: res.status === 200 ? undefined : res.body.error.message };
}

const OK = { REST: 204, tRPC: 200 } as const;

describe('the owner role is an owner matter', () => {
  describe.each(['REST', 'tRPC'] as const)('through %s', (via) => {
    it('an admin cannot make themself or anyone else an owner', async () => {
      const { t, team } = await appWithTeam();
      for (const [who, roles] of [
        [team.admin.email, ['owner']],
        [team.admin.email, ['admin', 'owner']],
        [team.readOnly.email, ['owner']],
      ] as const) {
        const res = await changeRoles(t, via, team.admin.cookie, who, [...roles]);
        expect(res, `${who} ${roles.join(',')}`).toEqual({
          status: 403,
          message: 'Only an owner can make someone an owner.',
        });
      }
      const account = await getAccount(t, team.owner.cookie, team.accountId);
      expect(rolesOf(account, team.admin.email)).toEqual(['admin']);
      expect(rolesOf(account, team.readOnly.email)).toEqual(['read_only']);
    });

    it("an admin cannot change an owner's roles or remove an owner, even when another owner remains", async () => {
      const { t, team } = await appWithTeam();
      const second = await addMember(t, team.owner.cookie, 'second-owner@example.com', ['owner']);
      for (const roles of [['read_only'], ['admin'], ['owner', 'read_only']]) {
        const res = await changeRoles(t, via, team.admin.cookie, team.owner.email, roles);
        expect(res).toEqual({ status: 403, message: "Only an owner can change an owner's role." });
      }
      for (const owner of [team.owner, second]) {
        const res = await removeMember(t, via, team.admin.cookie, owner.userId);
        expect(res).toEqual({ status: 403, message: 'Only an owner can remove an owner.' });
      }
      const account = await getAccount(t, team.owner.cookie, team.accountId);
      expect(rolesOf(account, team.owner.email)).toEqual(['owner']);
      expect(rolesOf(account, second.email)).toEqual(['owner']);
    });

    it('the reported attack fails: an admin neither becomes owner nor removes the real owner', async () => {
      const { t, team } = await appWithTeam();
      expect((await changeRoles(t, via, team.admin.cookie, team.admin.email, ['owner'])).status).toBe(403);
      expect((await removeMember(t, via, team.admin.cookie, team.owner.userId)).status).toBe(403);
      const account = await getAccount(t, team.owner.cookie, team.accountId);
      expect(account.members.map((m) => [m.username, m.roles])).toEqual([
        [team.admin.email, ['admin']],
        [team.owner.email, ['owner']],
        [team.readOnly.email, ['read_only']],
      ]);
    });

    it('an admin still manages members up to admin', async () => {
      const { t, team } = await appWithTeam();
      expect((await changeRoles(t, via, team.admin.cookie, team.readOnly.email, ['admin'])).status).toBe(OK[via]);
      expect((await changeRoles(t, via, team.admin.cookie, team.readOnly.email, ['read_only'])).status).toBe(OK[via]);
      const other = await addMember(t, team.owner.cookie, 'other-admin@example.com', ['admin']);
      expect((await changeRoles(t, via, team.admin.cookie, other.email, ['read_only'])).status).toBe(OK[via]);
      expect((await removeMember(t, via, team.admin.cookie, other.userId)).status).toBe(OK[via]);
      expect((await inviteAs(t, via, team.admin.cookie, 'new-admin@example.com', ['admin'])).status).toBe(OK[via]);
      // An admin may step down too; an account keeps its owner all the same.
      expect((await changeRoles(t, via, team.admin.cookie, team.admin.email, ['read_only'])).status).toBe(OK[via]);
      const account = await getAccount(t, team.owner.cookie, team.accountId);
      expect(rolesOf(account, team.admin.email)).toEqual(['read_only']);
      expect(rolesOf(account, team.readOnly.email)).toEqual(['read_only']);
      expect(account.invitations.map((i) => [i.email, i.roles])).toEqual([['new-admin@example.com', ['admin']]]);
    });

    it('an admin cannot invite an owner; nothing is stored or mailed', async () => {
      const { t, team } = await appWithTeam();
      for (const roles of [['owner'], ['read_only', 'owner']]) {
        const res = await inviteAs(t, via, team.admin.cookie, 'boss@example.com', roles);
        expect(res).toEqual({ status: 403, message: 'Only an owner can make someone an owner.' });
      }
      expect((await getAccount(t, team.owner.cookie, team.accountId)).invitations).toEqual([]);
      expect(mailsTo(t, 'boss@example.com')).toEqual([]);
    });

    it.each<Actor>(['owner', 'global admin (read_only member)'])(
      '%s grants and takes back the owner role and removes an owner',
      async (actor) => {
        const { t, team } = await appWithTeam();
        const { cookie } = await actorCookie(t, team, actor);
        expect((await changeRoles(t, via, cookie, team.admin.email, ['owner'])).status).toBe(OK[via]);
        expect((await changeRoles(t, via, cookie, team.admin.email, ['admin'])).status).toBe(OK[via]);
        expect((await changeRoles(t, via, cookie, team.readOnly.email, ['owner'])).status).toBe(OK[via]);
        expect((await removeMember(t, via, cookie, team.readOnly.userId)).status).toBe(OK[via]);
        expect((await inviteAs(t, via, cookie, 'boss@example.com', ['owner'])).status).toBe(OK[via]);
        const account = await getAccount(t, team.owner.cookie, team.accountId);
        expect(rolesOf(account, team.admin.email)).toEqual(['admin']);
        expect(rolesOf(account, team.readOnly.email)).toBeUndefined();
        expect(account.invitations.map((i) => [i.email, i.roles])).toEqual([['boss@example.com', ['owner']]]);
      },
    );
  });

  describe("an owner's invitation to the owner role", () => {
    async function withOwnerInvite() {
      const app = await appWithTeam();
      const link = await invite(app.t, app.team.owner.cookie, 'boss@example.com', ['owner']);
      return { ...app, link };
    }

    it('cannot be resent, cancelled or replaced by an admin', async () => {
      const { t, team, link } = await withOwnerInvite();
      const message = 'Only an owner can resend, change or cancel an invitation to the owner role.';
      const resend = await call(t.server, 'POST', '/api/accounts/invite/resend', {
        cookie: team.admin.cookie,
        body: { email: 'boss@example.com' },
      });
      expect(expectError(resend, 403)).toBe(message);
      const cancel = await call(t.server, 'DELETE', '/api/accounts/invite', {
        cookie: team.admin.cookie,
        body: { email: 'boss@example.com' },
      });
      expect(expectError(cancel, 403)).toBe(message);
      const replace = await inviteAs(t, 'REST', team.admin.cookie, 'boss@example.com', ['read_only']);
      expect(replace).toEqual({ status: 403, message });
      const viaTrpc = await trpcMutation<TrpcError>(
        t,
        'accounts.cancelInvite',
        { email: 'boss@example.com' },
        team.admin.cookie,
      );
      expect(viaTrpc.body.error.message).toBe(message);

      expect(mailsTo(t, 'boss@example.com')).toHaveLength(1);
      expect((await getAccount(t, team.owner.cookie, team.accountId)).invitations.map((i) => i.roles)).toEqual([
        ['owner'],
      ]);
      // The owner's link still works and makes an owner.
      await acceptInvite(t, link);
      expect(rolesOf(await getAccount(t, team.owner.cookie, team.accountId), 'boss@example.com')).toEqual(['owner']);
    });

    it('grants nothing once its sender is no longer an owner', async () => {
      const { t, team, link } = await withOwnerInvite();
      // The owner hands over to another owner and steps down to admin.
      await changeRoles(t, 'REST', team.owner.cookie, team.admin.email, ['owner']);
      expect((await changeRoles(t, 'REST', team.owner.cookie, team.owner.email, ['admin'])).status).toBe(204);
      const accept = await call(t.server, 'POST', `/api/accounts/${link.accountId}/invite/accept`, { body: link });
      expect(expectError(accept, 403)).toMatch(/^Invitation failed\. Whoever sent it may no longer give this role/);
      expect(accept.headers['set-cookie']).toBeUndefined();
      expect(rolesOf(await getAccount(t, team.admin.cookie, team.accountId), 'boss@example.com')).toBeUndefined();
    });
  });

  describe('an invitation to the owner role written by an admin before this rule held', () => {
    /** Stores the invitation as the old code did, straight into the metadata store. */
    async function legacyAdminInvite(t: TestApp, team: Team, email: string): Promise<string> {
      const token = `legacy-token-${email}`;
      const now = t.clock.now();
      await t.deps.db
        .insertInto('invitations')
        .values({
          id: `legacy-${email}`,
          account_id: team.accountId,
          email,
          name: '',
          roles: JSON.stringify(['owner']),
          token_hash: t.deps.hashToken(token),
          invited_by: team.admin.userId,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
        })
        .execute();
      return token;
    }

    it('is refused by its link, over REST and tRPC', async () => {
      const { t, team } = await appWithTeam();
      const token = await legacyAdminInvite(t, team, 'accomplice@example.com');
      const rest = await call(t.server, 'POST', `/api/accounts/${team.accountId}/invite/accept`, { body: { token } });
      expect(expectError(rest, 403)).toMatch(/^Invitation failed\./);
      const trpc = await trpcMutation<TrpcError>(t, 'accounts.acceptInvite', { accountId: team.accountId, token });
      expect(trpc.status).toBe(403);
      expect(rolesOf(await getAccount(t, team.owner.cookie, team.accountId), 'accomplice@example.com')).toBeUndefined();
    });

    it('is not accepted on sign-in either, for a new or an existing user', async () => {
      const { t, team } = await appWithTeam();
      // An existing user (an account of their own, by open sign-up) and an unknown address.
      await signIn(t, 'accomplice@example.com');
      await legacyAdminInvite(t, team, 'accomplice@example.com');
      await legacyAdminInvite(t, team, 'late@example.com');
      for (const email of ['accomplice@example.com', 'late@example.com']) {
        const user = await me(t, await signIn(t, email));
        expect(
          user.accounts.map((a) => a.id),
          email,
        ).not.toContain(team.accountId);
      }
      const account = await getAccount(t, team.owner.cookie, team.accountId);
      expect(rolesOf(account, 'accomplice@example.com')).toBeUndefined();
      expect(rolesOf(account, 'late@example.com')).toBeUndefined();
    });
  });

  it('an admin in one account who owns another cannot carry the owner role across', async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    await signIn(t, 'root@example.com');
    const team = await makeTeam(t, 'a-');
    // Carl owns his own account (open sign-up) and is an admin in the team.
    const carlOwn = await signIn(t, 'carl@example.com');
    const carlAccount = (await me(t, carlOwn)).currentAccountId ?? '';
    const carl = await addMember(t, team.owner.cookie, 'carl@example.com', ['admin']);
    expect((await me(t, carl.cookie)).currentAccountId).toBe(team.accountId);

    expect((await changeRoles(t, 'REST', carl.cookie, carl.email, ['owner'])).status).toBe(403);
    expect((await removeMember(t, 'REST', carl.cookie, team.owner.userId)).status).toBe(403);
    // Switched to his own account, he is an owner there, and the team's members are not found.
    await call(t.server, 'POST', '/api/switch', { cookie: carl.cookie, body: { accountId: carlAccount } });
    expect((await changeRoles(t, 'REST', carl.cookie, team.owner.email, ['read_only'])).status).toBe(404);
    expect((await removeMember(t, 'REST', carl.cookie, team.owner.userId)).status).toBe(404);
    const account = await getAccount(t, team.owner.cookie, team.accountId);
    expect(rolesOf(account, carl.email)).toEqual(['admin']);
    expect(rolesOf(account, team.owner.email)).toEqual(['owner']);
  });
});

import { describe, expect, it } from 'vitest';
import {
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
  type Team,
  type TestApp,
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

  it('keeps at least one owner: demoting or removing the only owner is a 409', async () => {
    const { t, team } = await appWithTeam();
    const demoteSelf = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: team.owner.cookie,
      body: { userName: team.owner.email, roles: ['admin'] },
    });
    expect(expectError(demoteSelf, 409)).toBe('An account must keep at least one owner.');
    const demoteByAdmin = await call(t.server, 'POST', '/api/accounts/role', {
      cookie: team.admin.cookie,
      body: { userName: team.owner.email, roles: ['read_only'] },
    });
    expectError(demoteByAdmin, 409);
    const removeByAdmin = await call(t.server, 'DELETE', '/api/accounts/member', {
      cookie: team.admin.cookie,
      body: { userId: team.owner.userId },
    });
    expectError(removeByAdmin, 409);
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

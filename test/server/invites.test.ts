import { describe, expect, it } from 'vitest';
import {
  acceptInvite,
  call,
  cookieFrom,
  expectError,
  getAccount,
  invite,
  inviteLinkIn,
  lastMailTo,
  loginTokenIn,
  mailsTo,
  makeApp,
  me,
  rolesOf,
  signIn,
  trpcMutation,
} from './helpers';

describe('invite and accept', () => {
  it('mails an invitation, lists it on the account, and accepting signs the invitee in with the invited roles', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    const accountId = (await me(t, owner)).currentAccountId ?? '';

    const res = await call(t.server, 'POST', '/api/accounts/invite', {
      cookie: owner,
      body: { email: 'Bob@Example.com', roles: ['admin'], name: 'Bob Stone' },
    });
    expect(res.status).toBe(204);
    const mail = lastMailTo(t, 'bob@example.com');
    expect(mail.subject).toBe("You are invited to Owner's account");
    expect(mail.text).toContain(`http://localhost:3000/invite?token=`);
    expect(mail.text).toContain(`&accountId=${accountId}`);

    const before = await getAccount(t, owner, accountId);
    expect(before.invitations).toEqual([
      { name: 'Bob Stone', email: 'bob@example.com', roles: ['admin'], createdAt: t.clock.now().toISOString() },
    ]);
    expect(before.members.map((m) => m.username)).toEqual(['owner@example.com']);

    const link = inviteLinkIn(mail);
    expect(link.accountId).toBe(accountId);
    const bob = await acceptInvite(t, link);
    const bobMe = await me(t, bob);
    expect(bobMe).toMatchObject({
      email: 'bob@example.com',
      name: 'Bob Stone',
      roles: ['user'],
      currentAccountId: accountId,
    });
    expect(bobMe.accounts).toEqual([
      { id: accountId, name: "Owner's account", roles: ['admin'], lastLoginAt: t.clock.now().toISOString() },
    ]);

    const after = await getAccount(t, owner, accountId);
    expect(after.invitations).toEqual([]);
    expect(rolesOf(after, 'bob@example.com')).toEqual(['admin']);
    expect(after.members.find((m) => m.username === 'bob@example.com')).toMatchObject({
      id: bobMe.id,
      name: 'Bob Stone',
      lastLoginAt: t.clock.now().toISOString(),
    });
  });

  it('defaults to read_only and refuses the same link twice', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    const res = await call(t.server, 'POST', '/api/accounts/invite', {
      cookie: owner,
      body: { email: 'amy@example.com' },
    });
    expect(res.status).toBe(204);
    const link = inviteLinkIn(lastMailTo(t, 'amy@example.com'));
    const amy = await acceptInvite(t, link);
    expect((await me(t, amy)).accounts[0]?.roles).toEqual(['read_only']);

    const again = await call(t.server, 'POST', `/api/accounts/${link.accountId}/invite/accept`, {
      body: { token: link.token },
    });
    expect(expectError(again, 404)).toMatch(/Invitation failed/);
  });

  it('refuses an invitation after 7 days', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    const link = await invite(t, owner, 'amy@example.com');
    t.clock.advance(7 * 24 * 60 * 60_000 + 1_000);
    expectError(await call(t.server, 'POST', `/api/accounts/${link.accountId}/invite/accept`, { body: link }), 404);
    expect((await getAccount(t, owner, link.accountId)).invitations).toEqual([]);
  });

  it('adds an existing user of another account as a member, keeping their other account', async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    const owner = await signIn(t, 'owner@example.com');
    const carl = await signIn(t, 'carl@example.com');
    const carlAccount = (await me(t, carl)).currentAccountId;
    const link = await invite(t, owner, 'carl@example.com', ['owner']);
    await acceptInvite(t, link);
    const carlMe = await me(t, carl);
    expect(carlMe.currentAccountId).toBe(link.accountId);
    expect(carlMe.accounts.map((a) => a.id).sort()).toEqual([carlAccount, link.accountId].sort());
    expect(rolesOf(await getAccount(t, owner, link.accountId), 'carl@example.com')).toEqual(['owner']);
  });

  it('refuses to invite someone who is already a member (409)', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    await acceptInvite(t, await invite(t, owner, 'amy@example.com'));
    const res = await call(t.server, 'POST', '/api/accounts/invite', {
      cookie: owner,
      body: { email: 'amy@example.com' },
    });
    expect(expectError(res, 409)).toMatch(/already a member/);
    const self = await call(t.server, 'POST', '/api/accounts/invite', {
      cookie: owner,
      body: { email: 'owner@example.com' },
    });
    expectError(self, 409);
  });

  it('resend mails a fresh link and the old link stops working', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    const first = await invite(t, owner, 'amy@example.com', ['admin'], 'Amy');
    t.clock.advance(60_000);
    const res = await call(t.server, 'POST', '/api/accounts/invite/resend', {
      cookie: owner,
      body: { email: 'amy@example.com' },
    });
    expect(res.status).toBe(204);
    expect(mailsTo(t, 'amy@example.com')).toHaveLength(2);
    const second = inviteLinkIn(lastMailTo(t, 'amy@example.com'));
    expect(second.token).not.toBe(first.token);

    expectError(await call(t.server, 'POST', `/api/accounts/${first.accountId}/invite/accept`, { body: first }), 404);
    const amy = await acceptInvite(t, second);
    expect((await me(t, amy)).accounts[0]?.roles).toEqual(['admin']);
    expect((await me(t, amy)).name).toBe('Amy');
  });

  it('resend of an unknown invitation is a 404', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    const res = await call(t.server, 'POST', '/api/accounts/invite/resend', {
      cookie: owner,
      body: { email: 'x@example.com' },
    });
    expectError(res, 404);
  });

  it('cancel removes the invitation and its link', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    const link = await invite(t, owner, 'amy@example.com');
    const res = await call(t.server, 'DELETE', '/api/accounts/invite', {
      cookie: owner,
      body: { email: 'AMY@example.com' },
    });
    expect(res.status).toBe(204);
    expect((await getAccount(t, owner, link.accountId)).invitations).toEqual([]);
    expectError(await call(t.server, 'POST', `/api/accounts/${link.accountId}/invite/accept`, { body: link }), 404);
    expectError(
      await call(t.server, 'DELETE', '/api/accounts/invite', { cookie: owner, body: { email: 'amy@example.com' } }),
      404,
    );
    // A cancelled invitation no longer opens the door to a login link either.
    await call(t.server, 'POST', '/api/login', { body: { email: 'amy@example.com' } });
    expect(mailsTo(t, 'amy@example.com')).toHaveLength(1);
  });

  it('an invited unknown address may ask for a login link and joins the account on confirm', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    const { accountId } = await invite(t, owner, 'dana@example.com', ['admin'], 'Dana Ray');

    const login = await call(t.server, 'POST', '/api/login', { body: { email: 'dana@example.com' } });
    expect(login.status).toBe(200);
    const token = loginTokenIn(lastMailTo(t, 'dana@example.com'));
    const confirm = await call(t.server, 'POST', '/api/confirm', { body: { token } });
    expect(confirm.status).toBe(200);
    const dana = await me(t, cookieFrom(confirm));
    expect(dana).toMatchObject({ name: 'Dana Ray', roles: ['user'], currentAccountId: accountId });
    expect(dana.accounts).toEqual([
      { id: accountId, name: "Owner's account", roles: ['admin'], lastLoginAt: t.clock.now().toISOString() },
    ]);
    expect((await getAccount(t, owner, accountId)).invitations).toEqual([]);
  });

  it('invites through tRPC too', async () => {
    const t = await makeApp();
    const owner = await signIn(t, 'owner@example.com');
    const res = await trpcMutation(t, 'accounts.invite', { email: 'eve@example.com', roles: ['read_only'] }, owner);
    expect(res.status).toBe(200);
    const link = inviteLinkIn(lastMailTo(t, 'eve@example.com'));
    const accept = await trpcMutation(t, 'accounts.acceptInvite', link);
    expect(accept.status).toBe(200);
    expect((await me(t, cookieFrom(accept))).email).toBe('eve@example.com');
  });
});

import { TRPCClientError, createTRPCClient, httpBatchLink } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import type { Me } from '../../src/shared/auth';
import type { AppRouter } from '../../src/server/trpc/app-router';
import { lastMailTo, listen, loginTokenIn, makeApp } from './helpers';

/** The session cookie a fetch answer set, ready for the next request's Cookie header. */
function sessionCookie(res: Response): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('ws_session='));
  if (!cookie) throw new Error('No session cookie');
  return cookie.split(';')[0] ?? '';
}

describe('over a real listening port', () => {
  it('signs in with fetch through the outbox and logs out', async () => {
    const t = await makeApp();
    const base = await listen(t);
    const json = { 'content-type': 'application/json' };

    const login = await fetch(`${base}/api/login?returnUrl=${encodeURIComponent('/settings/user')}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'ann@example.com' }),
    });
    expect(login.status).toBe(200);

    const token = loginTokenIn(lastMailTo(t, 'ann@example.com'));
    const confirm = await fetch(`${base}/api/confirm`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ token }),
    });
    expect(confirm.status).toBe(200);
    expect(await confirm.json()).toEqual({ returnUrl: '/settings/user' });
    const cookie = sessionCookie(confirm);

    const meRes = await fetch(`${base}/api/me`, { headers: { cookie } });
    expect(meRes.status).toBe(200);
    expect(((await meRes.json()) as Me).email).toBe('ann@example.com');

    // A body-less action needs the Origin a browser sends (or a JSON body, as a script would).
    expect((await fetch(`${base}/api/logout`, { method: 'POST', headers: { cookie } })).status).toBe(403);
    expect((await fetch(`${base}/api/logout`, { method: 'POST', headers: { cookie, origin: base } })).status).toBe(204);
    const after = await fetch(`${base}/api/me`, { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: 'You are not signed in.' });
  });

  it('serves the typed tRPC client with batched calls, as the React client uses it', async () => {
    const t = await makeApp();
    const base = await listen(t);
    let cookie = '';
    const client = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${base}/trpc`,
          headers: () => (cookie ? { cookie } : {}),
          fetch: async (url, init) => {
            const res = await fetch(url, init);
            const set = res.headers.getSetCookie().find((c) => c.startsWith('ws_session='));
            if (set) cookie = set.split(';')[0] ?? '';
            return res;
          },
        }),
      ],
    });

    expect(await client.auth.me.query()).toBeNull();
    await client.auth.requestLogin.mutate({ email: 'ann@example.com' });
    const confirmed = await client.auth.confirm.mutate({ token: loginTokenIn(lastMailTo(t, 'ann@example.com')) });
    expect(confirmed).toEqual({ returnUrl: null });

    const [current, users] = await Promise.all([
      client.auth.me.query(),
      client.admin.searchUsers.query({ query: 'ann' }),
    ]);
    expect(current?.roles).toEqual(['admin', 'user']);
    expect(users.map((u) => u.email)).toEqual(['ann@example.com']);

    const account = await client.accounts.get.query({ accountId: current?.currentAccountId ?? '' });
    expect(account.members.map((m) => m.username)).toEqual(['ann@example.com']);

    const failure = await client.accounts.invite.mutate({ email: 'not-an-address' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TRPCClientError);
    expect((failure as TRPCClientError<AppRouter>).message).toBe('email: Provide an email adress');
    expect((failure as TRPCClientError<AppRouter>).data?.httpStatus).toBe(400);
  });
});

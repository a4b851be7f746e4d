import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../context';
import type { UserRow } from '../db/schema';
import { SESSION_COOKIE, resolveSession } from '../auth/sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, resolved once per request from the session cookie. */
    user: UserRow | null;
    /**
     * The roles (as stored) of the user's membership of the account that was current when the session
     * was read, with that account's id; null when there is none.
     */
    sessionMembership: { accountId: string; roles: string } | null;
    /** When the caller's session ends (ISO); null when signed out. */
    sessionExpiresAt: string | null;
  }
}

/** Resolves the session cookie for API and tRPC calls, so both adapters see the same user. */
export function registerRequestUser(app: FastifyInstance, deps: Deps): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionMembership', null);
  app.decorateRequest('sessionExpiresAt', null);
  app.addHook('onRequest', async (req) => {
    if (!isApiPath(req.url)) return;
    const found = await resolveSession(deps, req.cookies[SESSION_COOKIE]);
    req.user = found?.user ?? null;
    req.sessionExpiresAt = found?.expiresAt ?? null;
    const accountId = found?.user.current_account_id;
    req.sessionMembership = accountId && found?.currentRoles != null ? { accountId, roles: found.currentRoles } : null;
  });
}

export function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/trpc/') || url === '/api' || url === '/trpc';
}

export function sessionTokenOf(req: FastifyRequest): string | undefined {
  return req.cookies[SESSION_COOKIE];
}

export function userAgentOf(req: FastifyRequest): string | null {
  return req.headers['user-agent'] ?? null;
}

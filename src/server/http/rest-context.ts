import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/messages';
import type { AccountContext, Deps, UserContext } from '../context';
import { notSignedIn } from '../errors';
import { accountContextOf, resolveAccountContext } from '../modules/accounts/access';

/** The signed-in caller of a REST call, or a 401. */
export function signedIn(req: FastifyRequest): UserContext {
  if (!req.user) throw notSignedIn(MESSAGES.notSignedIn);
  return { user: req.user };
}

/** Each request's account context, resolved once (tRPC's batched calls of one request share it). */
const resolved = new WeakMap<FastifyRequest, { accountId: string | null; context: Promise<AccountContext> }>();

/**
 * The caller inside their current account, for account-scoped calls: the membership is read once
 * per request, again only if the request itself switched accounts.
 */
export function inAccount(req: FastifyRequest, deps: Deps): Promise<AccountContext> {
  const { user } = signedIn(req);
  const kept = resolved.get(req);
  if (kept && kept.accountId === user.current_account_id) return kept.context;
  // The session's lookup read the membership of the account then current: no second read.
  const read = req.sessionMembership;
  const context =
    read && read.accountId === user.current_account_id
      ? (async () => accountContextOf(user, read.roles))()
      : resolveAccountContext(deps, user);
  resolved.set(req, { accountId: user.current_account_id, context });
  return context;
}

/** A JSON body, or an empty object when none was sent, so the schema names what is missing. */
export function bodyOf(req: FastifyRequest): unknown {
  return req.body ?? {};
}

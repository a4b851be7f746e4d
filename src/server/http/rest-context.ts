import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/messages';
import type { AccountContext, Deps, UserContext } from '../context';
import { notSignedIn } from '../errors';
import { resolveAccountContext } from '../modules/accounts/access';

/** The signed-in caller of a REST call, or a 401. */
export function signedIn(req: FastifyRequest): UserContext {
  if (!req.user) throw notSignedIn(MESSAGES.notSignedIn);
  return { user: req.user };
}

/** The caller inside their current account, for account-scoped REST calls. */
export function inAccount(req: FastifyRequest, deps: Deps): Promise<AccountContext> {
  return resolveAccountContext(deps, signedIn(req).user);
}

/** A JSON body, or an empty object when none was sent, so the schema names what is missing. */
export function bodyOf(req: FastifyRequest): unknown {
  return req.body ?? {};
}

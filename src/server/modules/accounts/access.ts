import { MESSAGES } from '../../../shared/messages';
import { canManageAccount, canWrite, isGlobalAdmin } from '../../../shared/roles';
import type { AccountContext, Deps, UserContext } from '../../context';
import { parseRoles } from '../../db/database';
import type { AccountRow, UserRow } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { findAccount, findMembership } from './repo';

/**
 * The caller's current account as a context for account-scoped calls. A user who is no longer a
 * member of it (or has none) is refused, never given another account's data.
 */
export async function resolveAccountContext(deps: Deps, user: UserRow): Promise<AccountContext> {
  const accountId = user.current_account_id;
  const membership = accountId ? await findMembership(deps.db, accountId, user.id) : undefined;
  return accountContextOf(user, membership?.roles);
}

/** The context of `user` in their current account, given their membership's stored roles there (if any). */
export function accountContextOf(user: UserRow, storedRoles: string | null | undefined): AccountContext {
  const accountId = user.current_account_id;
  if (!accountId || storedRoles == null) throw forbidden(MESSAGES.noAccount);
  return { user, accountId, roles: parseRoles(storedRoles) };
}

/**
 * Looks up an account named in a path. Members and global admins see it; to anyone else it does
 * not exist (404), so ids of other accounts reveal nothing.
 */
export async function accountVisibleTo(
  deps: Deps,
  caller: UserContext,
  accountId: string,
): Promise<{ account: AccountRow; roles: string[] }> {
  const membership = await findMembership(deps.db, accountId, caller.user.id);
  const userRoles = parseRoles(caller.user.roles);
  if (!membership && !isGlobalAdmin(userRoles)) throw notFound(MESSAGES.accountNotFound);
  const account = await findAccount(deps.db, accountId);
  if (!account) throw notFound(MESSAGES.accountNotFound);
  return { account, roles: membership ? parseRoles(membership.roles) : [] };
}

/** Changes to the account's data: read_only members change nothing. */
export function requireWriter(ctx: AccountContext): void {
  if (!canWrite(ctx.roles, parseRoles(ctx.user.roles))) throw forbidden(MESSAGES.readOnly);
}

/** Owners and admins of the account, or a global admin; read_only members change nothing. */
export function requireManager(user: UserRow, memberRoles: readonly string[]): void {
  if (canManageAccount(memberRoles, parseRoles(user.roles))) return;
  throw forbidden(memberRoles.includes('read_only') ? MESSAGES.readOnly : MESSAGES.notAllowed);
}

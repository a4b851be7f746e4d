import { MESSAGES } from '../../../shared/messages';
import { canGrantRoles, canManageMember } from '../../../shared/roles';
import type { AccountContext } from '../../context';
import type { Db } from '../../db/database';
import { parseRoles } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { forbidden } from '../../errors';
import { requireManager as requireAccountManager } from './access';
import { findMembership } from './repo';

/**
 * The one place that decides who may give, change or take away a role in an account. Every path
 * that writes a membership or an invitation goes through here: inviting, resending and cancelling
 * an invitation, accepting one (by link or on sign-in), changing a member's roles and removing a
 * member, over REST and tRPC alike. The rules themselves are the shared functions of
 * shared/roles.ts, so the client offers exactly what the server allows:
 * - read_only members change nothing;
 * - admins manage members and invitations up to admin, never the owner role and never an owner;
 * - owners and global admins may do everything, within the guard rails kept by the service
 *   (an account keeps an owner, nobody removes themself).
 */

/** The caller as the rules see them: their global roles and their roles in the account. */
export interface RoleActor {
  user: UserRow;
  memberRoles: readonly string[];
}

/**
 * The caller's roles read again inside the write's transaction, so a caller demoted or removed a
 * moment ago acts with what they hold now, not with what their request started with.
 */
export async function actorIn(trx: Db, ctx: AccountContext): Promise<RoleActor> {
  const membership = await findMembership(trx, ctx.accountId, ctx.user.id);
  const memberRoles = membership ? parseRoles(membership.roles) : [];
  return { user: ctx.user, memberRoles };
}

function globalRoles(actor: RoleActor): string[] {
  return parseRoles(actor.user.roles);
}

/** Owners and admins of the account, or a global admin; read_only members change nothing. */
function requireManager(actor: RoleActor): void {
  requireAccountManager(actor.user, actor.memberRoles);
}

/** Giving these roles, in an invitation or a role change: the owner role only from an owner. */
export function requireMayGrant(actor: RoleActor, roles: readonly string[]): void {
  requireManager(actor);
  if (!canGrantRoles(actor.memberRoles, globalRoles(actor), roles)) throw forbidden(MESSAGES.onlyOwnersGrantOwner);
}

/** Changing the roles of a member who holds `targetRoles`: an owner's only by an owner. */
export function requireMayChangeRolesOf(actor: RoleActor, targetRoles: readonly string[]): void {
  requireManager(actor);
  if (!canManageMember(actor.memberRoles, globalRoles(actor), targetRoles)) {
    throw forbidden(MESSAGES.onlyOwnersChangeOwner);
  }
}

/** Removing a member who holds `targetRoles`: an owner only by an owner. */
export function requireMayRemove(actor: RoleActor, targetRoles: readonly string[]): void {
  requireManager(actor);
  if (!canManageMember(actor.memberRoles, globalRoles(actor), targetRoles)) {
    throw forbidden(MESSAGES.onlyOwnersRemoveOwner);
  }
}

/**
 * Resending, cancelling or replacing a pending invitation that gives `inviteRoles`: resending
 * grants its roles anew, and cancelling or replacing an owner's invitation to the owner role would
 * let an admin undo an owner's decision, so an invitation to the owner role is an owner's matter.
 */
export function requireMayHandleInvitation(actor: RoleActor, inviteRoles: readonly string[]): void {
  requireManager(actor);
  if (!canGrantRoles(actor.memberRoles, globalRoles(actor), inviteRoles)) {
    throw forbidden(MESSAGES.onlyOwnersOwnerInvite);
  }
}

/**
 * Accepting an invitation grants its roles on behalf of whoever sent it, so the sender must still
 * be allowed to give them now: an invitation from someone since removed or demoted, or one to the
 * owner role from a non-owner (written before this rule held), grants nothing.
 */
export async function inviterMayStillGrant(
  trx: Db,
  invite: { account_id: string; invited_by: string | null; roles: string },
): Promise<boolean> {
  if (!invite.invited_by) return false;
  const inviter = await trx.selectFrom('users').selectAll().where('id', '=', invite.invited_by).executeTakeFirst();
  if (!inviter) return false;
  const membership = await findMembership(trx, invite.account_id, inviter.id);
  const memberRoles = membership ? parseRoles(membership.roles) : [];
  return canGrantRoles(memberRoles, parseRoles(inviter.roles), parseRoles(invite.roles));
}

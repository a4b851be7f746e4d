import type {
  AcceptInviteInput,
  Account,
  ChangeRolesInput,
  InviteEmailInput,
  InviteRequest,
  RemoveMemberInput,
  RenameAccountInput,
  SwitchAccountInput,
} from '../../../shared/accounts';
import { LIMITS } from '../../../shared/limits';
import { MESSAGES } from '../../../shared/messages';
import type { AccountContext, Deps, UserContext } from '../../context';
import type { Db } from '../../db/database';
import { parseRoles, serialiseRoles } from '../../db/database';
import { addMinutes, newId } from '../../db/ids';
import { badInput, conflict, forbidden, notFound } from '../../errors';
import { inviteMail } from '../../mail/templates';
import { createSession } from '../../auth/sessions';
import { newToken } from '../../auth/tokens';
import { findUserByEmail, insertUser } from '../users/repo';
import { accountVisibleTo, requireManager } from './access';
import { notifyInvitationAccepted, notifyRolesChanged } from './member-notifications';
import {
  actorIn,
  inviterMayStillGrant,
  requireMayChangeRolesOf,
  requireMayGrant,
  requireMayHandleInvitation,
  requireMayRemove,
  type RoleActor,
} from './role-rules';
import {
  addMembership,
  countOwners,
  findAccount,
  findMemberByEmail,
  findMembership,
  landingAccountId,
  recordLogin,
  setCurrentAccount,
} from './repo';

const INVITE_MINUTES = LIMITS.inviteTokenDays * 24 * 60;

export function createAccountsService(deps: Deps) {
  const { db, config, clock } = deps;

  /**
   * Writes (or replaces) the account's invitation for `email` with a fresh token, then mails it.
   * `allowed` runs first in the same transaction, with the caller's roles as they are now, and
   * throws when the caller may not send this invitation; so no check can go stale before the write.
   */
  async function sendInvite(
    ctx: AccountContext,
    email: string,
    allowed: (trx: Db, actor: RoleActor) => Promise<{ name: string; roles: string[] }>,
  ): Promise<void> {
    const account = await findAccount(db, ctx.accountId);
    if (!account) throw notFound(MESSAGES.accountNotFound);
    const token = newToken();
    const now = clock();
    await db.transaction().execute(async (trx) => {
      const { name, roles } = await allowed(trx, await actorIn(trx, ctx));
      await trx
        .insertInto('invitations')
        .values({
          id: newId(),
          account_id: ctx.accountId,
          email,
          name,
          roles: serialiseRoles(roles),
          token_hash: deps.hashToken(token),
          invited_by: ctx.user.id,
          created_at: now.toISOString(),
          expires_at: addMinutes(now, INVITE_MINUTES),
        })
        .onConflict((oc) =>
          oc.columns(['account_id', 'email']).doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            roles: eb.ref('excluded.roles'),
            token_hash: eb.ref('excluded.token_hash'),
            invited_by: eb.ref('excluded.invited_by'),
            created_at: eb.ref('excluded.created_at'),
            expires_at: eb.ref('excluded.expires_at'),
          })),
        )
        .execute();
    });
    const link = `${config.publicUrl}/invite?token=${encodeURIComponent(token)}&accountId=${encodeURIComponent(ctx.accountId)}`;
    await deps.mailer.send(
      inviteMail(email, link, account.name, ctx.user.name || ctx.user.email, LIMITS.inviteTokenDays),
    );
  }

  async function pendingInvitationRoles(trx: Db, accountId: string, email: string): Promise<string[] | null> {
    const row = await trx
      .selectFrom('invitations')
      .select('roles')
      .where('account_id', '=', accountId)
      .where('email', '=', email)
      .executeTakeFirst();
    return row ? parseRoles(row.roles) : null;
  }

  return {
    /** The account with its members and pending invitations. */
    async getAccount(caller: UserContext, accountId: string): Promise<Account> {
      const { account } = await accountVisibleTo(deps, caller, accountId);
      const members = await db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select(['users.id', 'users.name', 'users.email', 'memberships.roles', 'memberships.last_login_at'])
        .where('memberships.account_id', '=', accountId)
        .orderBy('users.name')
        .orderBy('users.email')
        .execute();
      const invitations = await db
        .selectFrom('invitations')
        .select(['name', 'email', 'roles', 'created_at'])
        .where('account_id', '=', accountId)
        .where('expires_at', '>', clock().toISOString())
        .orderBy('created_at', 'desc')
        .execute();
      return {
        id: account.id,
        name: account.name,
        createdAt: account.created_at,
        members: members.map((m) => ({
          id: m.id,
          name: m.name,
          username: m.email,
          roles: parseRoles(m.roles),
          lastLoginAt: m.last_login_at,
        })),
        invitations: invitations.map((i) => ({
          name: i.name,
          email: i.email,
          roles: parseRoles(i.roles),
          createdAt: i.created_at,
        })),
      };
    },

    async renameAccount(caller: UserContext, accountId: string, input: RenameAccountInput) {
      if (input.accountId !== undefined && input.accountId !== accountId) {
        throw badInput('accountId in the body does not match the path.');
      }
      const { roles } = await accountVisibleTo(deps, caller, accountId);
      requireManager(caller.user, roles);
      await db.updateTable('accounts').set({ name: input.name }).where('id', '=', accountId).execute();
      return { id: accountId, name: input.name };
    },

    async invite(ctx: AccountContext, input: InviteRequest): Promise<void> {
      requireManager(ctx.user, ctx.roles);
      await sendInvite(ctx, input.email, async (trx, actor) => {
        requireMayGrant(actor, input.roles);
        const existing = await findUserByEmail(trx, input.email);
        if (existing && (await findMembership(trx, ctx.accountId, existing.id))) throw conflict(MESSAGES.alreadyMember);
        // Inviting again replaces a pending invitation: that may not undo an owner's invitation.
        const pending = await pendingInvitationRoles(trx, ctx.accountId, input.email);
        if (pending) requireMayHandleInvitation(actor, pending);
        return { name: input.name, roles: input.roles };
      });
    },

    /** Sends the invitation again with a fresh link and expiry; the old link stops working. */
    async resendInvite(ctx: AccountContext, { email }: InviteEmailInput): Promise<void> {
      requireManager(ctx.user, ctx.roles);
      await sendInvite(ctx, email, async (trx, actor) => {
        const invite = await trx
          .selectFrom('invitations')
          .select(['name', 'roles'])
          .where('account_id', '=', ctx.accountId)
          .where('email', '=', email)
          .executeTakeFirst();
        if (!invite) throw notFound(MESSAGES.inviteNotFound);
        const roles = parseRoles(invite.roles);
        requireMayHandleInvitation(actor, roles);
        return { name: invite.name, roles };
      });
    },

    async cancelInvite(ctx: AccountContext, { email }: InviteEmailInput): Promise<void> {
      requireManager(ctx.user, ctx.roles);
      await db.transaction().execute(async (trx) => {
        const roles = await pendingInvitationRoles(trx, ctx.accountId, email);
        if (!roles) throw notFound(MESSAGES.inviteNotFound);
        requireMayHandleInvitation(await actorIn(trx, ctx), roles);
        await trx
          .deleteFrom('invitations')
          .where('account_id', '=', ctx.accountId)
          .where('email', '=', email)
          .execute();
      });
    },

    /**
     * Accepting proves the invited address, so it also signs that address in (creating the user
     * when new) and lands them in the account.
     */
    async acceptInvite(
      accountId: string,
      { token }: AcceptInviteInput,
      userAgent: string | null,
    ): Promise<{ sessionToken: string }> {
      const now = clock();
      const accepted = await db.transaction().execute(async (trx) => {
        const invite = await trx
          .selectFrom('invitations')
          .selectAll()
          .where('token_hash', '=', deps.hashToken(token))
          .where('account_id', '=', accountId)
          .where('expires_at', '>', now.toISOString())
          .executeTakeFirst();
        if (!invite) return { ok: false as const, reason: 'invalid' as const };
        if (!(await inviterMayStillGrant(trx, invite))) return { ok: false as const, reason: 'inviter' as const };
        const user =
          (await findUserByEmail(trx, invite.email)) ??
          (await insertUser(trx, { email: invite.email, name: invite.name, roles: ['user'], now }));
        await addMembership(trx, { accountId, userId: user.id, roles: parseRoles(invite.roles), now });
        await trx.deleteFrom('invitations').where('id', '=', invite.id).execute();
        await setCurrentAccount(trx, user.id, accountId);
        await recordLogin(trx, user.id, accountId, now);
        return { ok: true as const, userId: user.id, invite, user };
      });
      if (accepted.ok) deps.hubs.moveUser(accepted.userId, accountId);
      if (!accepted.ok && accepted.reason === 'inviter') {
        throw forbidden(`${MESSAGES.inviteFailed} ${MESSAGES.inviterMayNotGrant}`);
      }
      if (!accepted.ok) throw notFound(`${MESSAGES.inviteFailed} The invitation is invalid or has expired.`);
      await notifyInvitationAccepted(deps, {
        accountId,
        inviterId: accepted.invite.invited_by,
        member: accepted.user,
        roles: parseRoles(accepted.invite.roles),
      });
      return { sessionToken: await createSession(deps, accepted.userId, userAgent) };
    },

    async changeRoles(ctx: AccountContext, input: ChangeRolesInput): Promise<void> {
      requireManager(ctx.user, ctx.roles);
      const changed = await db.transaction().execute(async (trx) => {
        const actor = await actorIn(trx, ctx);
        const target = await findMemberByEmail(trx, ctx.accountId, input.userName);
        if (!target) throw notFound(MESSAGES.memberNotFound);
        requireMayChangeRolesOf(actor, target.roles);
        requireMayGrant(actor, input.roles);
        const losesOwner = target.roles.includes('owner') && !input.roles.includes('owner');
        if (losesOwner && (await countOwners(trx, ctx.accountId)) <= 1) throw conflict(MESSAGES.lastOwner);
        await trx
          .updateTable('memberships')
          .set({ roles: serialiseRoles(input.roles) })
          .where('account_id', '=', ctx.accountId)
          .where('user_id', '=', target.userId)
          .execute();
        return target;
      });
      await notifyRolesChanged(deps, {
        accountId: ctx.accountId,
        actor: ctx.user,
        memberId: changed.userId,
        before: changed.roles,
        after: input.roles,
      });
    },

    async removeMember(ctx: AccountContext, { userId }: RemoveMemberInput): Promise<void> {
      requireManager(ctx.user, ctx.roles);
      if (userId === ctx.user.id) throw forbidden(MESSAGES.cannotRemoveSelf);
      const moved = await db.transaction().execute(async (trx): Promise<string | null | undefined> => {
        const actor = await actorIn(trx, ctx);
        const membership = await findMembership(trx, ctx.accountId, userId);
        if (!membership) throw notFound(MESSAGES.memberNotFound);
        const targetRoles = parseRoles(membership.roles);
        requireMayRemove(actor, targetRoles);
        if (targetRoles.includes('owner') && (await countOwners(trx, ctx.accountId)) <= 1) {
          throw conflict(MESSAGES.lastOwner);
        }
        await trx
          .deleteFrom('memberships')
          .where('account_id', '=', ctx.accountId)
          .where('user_id', '=', userId)
          .execute();
        const removed = await trx
          .selectFrom('users')
          .select('current_account_id')
          .where('id', '=', userId)
          .executeTakeFirst();
        if (removed?.current_account_id === ctx.accountId) {
          const landing = await landingAccountId(trx, userId, null);
          await setCurrentAccount(trx, userId, landing);
          return landing;
        }
        return undefined;
      });
      // The removed member's live connections leave the account's group at once.
      if (moved !== undefined) deps.hubs.moveUser(userId, moved);
    },

    /** Makes accountId the caller's current account; every later call is scoped to it. */
    async switchAccount(caller: UserContext, { accountId }: SwitchAccountInput): Promise<void> {
      const membership = await findMembership(db, accountId, caller.user.id);
      if (!membership) throw notFound(MESSAGES.accountNotFound);
      await setCurrentAccount(db, caller.user.id, accountId);
      await recordLogin(db, caller.user.id, accountId, clock());
      caller.user.current_account_id = accountId;
      // The current account is the user's, so each of their live connections moves with it.
      deps.hubs.moveUser(caller.user.id, accountId);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;

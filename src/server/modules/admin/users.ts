/** A user as the admin area sees them: accounts and roles, live sessions, the global admin role. */
import type { AdminUserDetail, SetGlobalAdmin, SignOutEverywhereAnswer } from '../../../shared/admin';
import { ADMIN_MESSAGES } from '../../../shared/admin';
import { isGlobalAdmin } from '../../../shared/roles';
import type { Deps } from '../../context';
import { parseRoles } from '../../db/database';
import { conflict, notFound } from '../../errors';
import { HUB_ERRORS } from '../../hubs/protocol';

export function createAdminUsers({ db, clock, hubs }: Deps) {
  async function userRow(userId: string) {
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound(ADMIN_MESSAGES.userNotFound);
    return user;
  }

  async function getUser(userId: string): Promise<AdminUserDetail> {
    const user = await userRow(userId);
    const now = clock().toISOString();
    const [accounts, sessions] = await Promise.all([
      db
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
        .select(['accounts.id', 'accounts.name', 'memberships.roles', 'memberships.last_login_at'])
        .where('memberships.user_id', '=', userId)
        .orderBy('accounts.name')
        .execute(),
      db
        .selectFrom('sessions')
        .select(['created_at', 'last_seen_at', 'expires_at', 'user_agent'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .orderBy('created_at', 'desc')
        .execute(),
    ]);
    const roles = parseRoles(user.roles);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      roles,
      isAdmin: isGlobalAdmin(roles),
      createdAt: user.created_at,
      lastLoginAt: user.last_login_at,
      accounts: accounts.map((a) => ({
        id: a.id,
        name: a.name,
        roles: parseRoles(a.roles),
        lastLoginAt: a.last_login_at,
      })),
      sessions: sessions.map((s) => ({
        createdAt: s.created_at,
        lastSeenAt: s.last_seen_at,
        expiresAt: s.expires_at,
        userAgent: s.user_agent,
      })),
    };
  }

  return {
    getUser,

    /** Revokes every live session of the user: each one's next request is signed out (401). */
    async signOutEverywhere(userId: string): Promise<SignOutEverywhereAnswer> {
      await userRow(userId);
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: clock().toISOString() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      hubs.closeUser(userId, HUB_ERRORS.signedOut);
      return { revoked: Number(result.numUpdatedRows) };
    },

    /**
     * Grants or takes the global admin role. The installation keeps at least one admin: the count
     * and the change happen in one transaction, so two admins removing each other cannot both win.
     */
    async setGlobalAdmin({ userId, admin }: SetGlobalAdmin): Promise<AdminUserDetail> {
      await db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select(['id', 'roles']).where('id', '=', userId).executeTakeFirst();
        if (!user) throw notFound(ADMIN_MESSAGES.userNotFound);
        const roles = parseRoles(user.roles);
        if (isGlobalAdmin(roles) === admin) return;
        if (!admin) {
          // Roles are stored as a JSON list: '"admin"' is the role itself, never a part of another.
          const { admins } = await trx
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('admins'))
            .where('roles', 'like', '%"admin"%')
            .executeTakeFirstOrThrow();
          if (Number(admins) <= 1) throw conflict(ADMIN_MESSAGES.lastAdmin);
        }
        // 'admin' first, as sign-up writes it; 'user' stays whatever else changes.
        const next = admin ? ['admin', ...roles.filter((r) => r !== 'admin')] : roles.filter((r) => r !== 'admin');
        if (!next.includes('user')) next.push('user');
        await trx
          .updateTable('users')
          .set({ roles: JSON.stringify(next) })
          .where('id', '=', userId)
          .execute();
      });
      return getUser(userId);
    },
  };
}

import { sql } from 'kysely';
import type { AdminAccount, AdminSearch, AdminUser } from '../../../shared/admin';
import type { Deps } from '../../context';
import { parseRoles } from '../../db/database';

const RESULT_LIMIT = 50;

/** LIKE pattern matching `text` anywhere, with the user's own % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Search across every account: only reachable through the global-admin procedures. */
export function createAdminService(deps: Deps) {
  const { db } = deps;
  return {
    async searchUsers({ query }: AdminSearch): Promise<AdminUser[]> {
      const pattern = containsPattern(query);
      const rows = await db
        .selectFrom('users')
        .leftJoin('memberships', 'memberships.user_id', 'users.id')
        .select([
          'users.id',
          'users.email',
          'users.name',
          'users.roles',
          'users.created_at',
          'users.last_login_at',
          (eb) => eb.fn.count<number>('memberships.account_id').as('account_count'),
        ])
        .where((eb) =>
          eb.or([
            eb(sql`lower(users.email)`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(users.name)`, 'like', sql`${pattern} escape '\\'`),
          ]),
        )
        .groupBy('users.id')
        .orderBy('users.email')
        .limit(RESULT_LIMIT)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        email: r.email,
        name: r.name,
        roles: parseRoles(r.roles),
        createdAt: r.created_at,
        lastLoginAt: r.last_login_at,
        accountCount: Number(r.account_count),
      }));
    },

    async searchAccounts({ query }: AdminSearch): Promise<AdminAccount[]> {
      const pattern = containsPattern(query);
      const rows = await db
        .selectFrom('accounts')
        .leftJoin('memberships', 'memberships.account_id', 'accounts.id')
        .select([
          'accounts.id',
          'accounts.name',
          'accounts.created_at',
          (eb) => eb.fn.count<number>('memberships.user_id').as('member_count'),
        ])
        .where((eb) =>
          eb.or([eb(sql`lower(accounts.name)`, 'like', sql`${pattern} escape '\\'`), eb('accounts.id', '=', query)]),
        )
        .groupBy('accounts.id')
        .orderBy('accounts.name')
        .limit(RESULT_LIMIT)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.created_at,
        memberCount: Number(r.member_count),
      }));
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

import { sql } from 'kysely';
import type { AdminAccount, AdminSearch, AdminUser } from '../../../shared/admin';
import type { CreateDefinitionRequest } from '../../../shared/integrations';
import { MESSAGES } from '../../../shared/messages';
import { isGlobalAdmin } from '../../../shared/roles';
import type { Deps, UserContext } from '../../context';
import { parseRoles } from '../../db/database';
import { forbidden } from '../../errors';
import { createAdminAccounts } from './accounts';
import { createAdminDefinitions } from './definitions';
import { createAdminUsers } from './users';

const RESULT_LIMIT = 50;

/** LIKE pattern matching `text` anywhere, with the user's own % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Every call checks the caller's global admin role itself (tRPC's adminProcedure checks it too), so
 * a REST path or a new procedure cannot forget it.
 */
function assertGlobalAdmin(ctx: UserContext): void {
  if (!isGlobalAdmin(parseRoles(ctx.user.roles))) throw forbidden(MESSAGES.notAllowed);
}

/** The admin area's calls, across every account: global admins only. */
export function createAdminService(deps: Deps) {
  const { db } = deps;
  const users = createAdminUsers(deps);
  const accounts = createAdminAccounts(deps);
  const definitions = createAdminDefinitions(deps);
  return {
    async searchUsers(ctx: UserContext, { query }: AdminSearch): Promise<AdminUser[]> {
      assertGlobalAdmin(ctx);
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

    async searchAccounts(ctx: UserContext, { query }: AdminSearch): Promise<AdminAccount[]> {
      assertGlobalAdmin(ctx);
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

    async getUser(ctx: UserContext, userId: string) {
      assertGlobalAdmin(ctx);
      return users.getUser(userId);
    },
    async signOutEverywhere(ctx: UserContext, userId: string) {
      assertGlobalAdmin(ctx);
      return users.signOutEverywhere(userId);
    },
    async setGlobalAdmin(ctx: UserContext, input: { userId: string; admin: boolean }) {
      assertGlobalAdmin(ctx);
      return users.setGlobalAdmin(input);
    },

    async getAccount(ctx: UserContext, accountId: string) {
      assertGlobalAdmin(ctx);
      return accounts.getAccount(accountId);
    },

    async listDefinitions(ctx: UserContext) {
      assertGlobalAdmin(ctx);
      return definitions.listDefinitions();
    },
    validateSpecification(ctx: UserContext, specification: string) {
      assertGlobalAdmin(ctx);
      return definitions.validateSpecification(specification);
    },
    async createDefinition(ctx: UserContext, input: CreateDefinitionRequest) {
      assertGlobalAdmin(ctx);
      return { id: await definitions.createDefinition(ctx, input) };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

/** An account as the admin area sees it: members, integrations, size on disk, last activity. */
import type { AdminAccountDetail } from '../../../shared/admin';
import type { IntegrationType, SyncStatus } from '../../../shared/integrations';
import { MESSAGES } from '../../../shared/messages';
import type { Deps } from '../../context';
import { parseRoles } from '../../db/database';
import { notFound } from '../../errors';
import { accountDir } from '../../warehouse/account-paths';
import { folderSize } from './folder-size';

const latest = (values: readonly (string | null | undefined)[]): string | null =>
  values.reduce<string | null>((max, v) => (v && (!max || v > max) ? v : max), null);

export function createAdminAccounts({ db, config }: Deps) {
  /** The newest timestamp of `column` in `table` for the account (ISO text sorts as time). */
  async function newest(
    table: 'memberships' | 'static_tables' | 'models' | 'integrations',
    column: 'last_login_at' | 'modified_at',
    accountId: string,
  ): Promise<string | null> {
    const row = await db
      .selectFrom(table)
      // The pairs passed in exist (memberships.last_login_at, the others' modified_at).
      .select((eb) => eb.fn.max(eb.ref(column as never)).as('at'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return (row?.at as string | null | undefined) ?? null;
  }

  return {
    async getAccount(accountId: string): Promise<AdminAccountDetail> {
      const account = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
      if (!account) throw notFound(MESSAGES.accountNotFound);
      const [members, integrations, lastRuns, bytes, activity] = await Promise.all([
        db
          .selectFrom('memberships')
          .innerJoin('users', 'users.id', 'memberships.user_id')
          .select(['users.id', 'users.email', 'users.name', 'memberships.roles', 'memberships.last_login_at'])
          .where('memberships.account_id', '=', accountId)
          .orderBy('users.email')
          .execute(),
        db
          .selectFrom('integrations')
          .innerJoin('integration_definitions', 'integration_definitions.id', 'integrations.definition_id')
          .select([
            'integrations.id',
            'integrations.name',
            'integrations.sync_status',
            'integrations.created_at',
            'integration_definitions.name as definition_name',
            'integration_definitions.type',
          ])
          .where('integrations.account_id', '=', accountId)
          .orderBy('integrations.name')
          .execute(),
        db
          .selectFrom('integration_runs')
          .innerJoin('integrations', 'integrations.id', 'integration_runs.integration_id')
          .select(['integration_runs.integration_id', (eb) => eb.fn.max('integration_runs.created_at').as('at')])
          .where('integrations.account_id', '=', accountId)
          .groupBy('integration_runs.integration_id')
          .execute(),
        folderSize(accountDir(config.dataDir, accountId)),
        Promise.all([
          newest('memberships', 'last_login_at', accountId),
          newest('static_tables', 'modified_at', accountId),
          newest('models', 'modified_at', accountId),
          newest('integrations', 'modified_at', accountId),
        ]),
      ]);
      const runAt = new Map(lastRuns.map((r) => [r.integration_id, r.at as string | null]));
      return {
        id: account.id,
        name: account.name,
        createdAt: account.created_at,
        members: members.map((m) => ({
          id: m.id,
          email: m.email,
          name: m.name,
          roles: parseRoles(m.roles),
          lastLoginAt: m.last_login_at,
        })),
        integrations: integrations.map((i) => ({
          id: i.id,
          name: i.name,
          definitionName: i.definition_name,
          type: i.type as IntegrationType,
          syncStatus: i.sync_status as SyncStatus,
          lastRunAt: runAt.get(i.id) ?? null,
          createdAt: i.created_at,
        })),
        warehouseBytes: bytes,
        lastActivityAt: latest([...activity, ...runAt.values()]),
      };
    },
  };
}

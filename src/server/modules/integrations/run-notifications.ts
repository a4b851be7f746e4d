/**
 * Notifications a finished sync run sends to the account's writers (owner, admin): a failed run
 * (Error; "re-authentication required" when the integration needs its credentials again), and a
 * completed run whose previous finished run had failed (Info, "recovered"). Cancelled runs send
 * nothing. Called once the run's rows are committed.
 */
import type { RunStatus } from '../../../shared/integrations';
import type { Deps } from '../../context';
import { notify } from '../notifications/notify';

export async function notifyRunFinished(
  deps: Deps,
  run: { id: string; integrationId: string; status: RunStatus; problem: string | null },
): Promise<void> {
  if (run.status !== 'Failed' && run.status !== 'Completed') return;
  const integration = await deps.db
    .selectFrom('integrations')
    .select(['id', 'account_id', 'name', 'requires_reauthentication'])
    .where('id', '=', run.integrationId)
    .executeTakeFirst();
  if (!integration) return;
  const target = { type: 'Run' as const, id: run.id, parentId: integration.id };
  const base = { accountId: integration.account_id, toAccountWriters: true, target };
  if (run.status === 'Failed') {
    const reauth = integration.requires_reauthentication === 1;
    await notify(deps, {
      ...base,
      kind: reauth ? 'SyncReauthRequired' : 'SyncFailed',
      severity: 'Error',
      title: reauth ? `Re-authentication required: ${integration.name}` : `Sync failed: ${integration.name}`,
      body: reauth
        ? `${integration.name} needs its credentials again before it can sync.`
        : (run.problem ?? 'The sync failed. Its log says why.'),
    });
    return;
  }
  const previous = await deps.db
    .selectFrom('integration_runs')
    .select('status')
    .where('integration_id', '=', integration.id)
    .where('id', '!=', run.id)
    .where('status', 'in', ['Completed', 'Failed'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (previous?.status !== 'Failed') return;
  await notify(deps, {
    ...base,
    kind: 'SyncRecovered',
    severity: 'Info',
    title: `Sync recovered: ${integration.name}`,
    body: `${integration.name} synced again after failing.`,
  });
}

/** The account's members as step input options, and who a step addresses when none is chosen. */
import type { InputOption } from '../../../../shared/automations';
import type { StepEnv } from '../step-kind';

export async function memberOptions(env: StepEnv): Promise<InputOption[]> {
  const rows = await env.deps.db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.name', 'u.email'])
    .where('m.account_id', '=', env.ctx.accountId)
    .orderBy('u.name')
    .orderBy('u.email')
    .execute();
  return rows.map((r) => ({ value: r.id, label: r.name && r.name !== r.email ? `${r.name} (${r.email})` : r.email }));
}

/** The definition's creator (its owner), when the definition is the account's and the creator still exists. */
export async function definitionOwner(env: StepEnv, definitionId: string): Promise<string | null> {
  const row = await env.deps.db
    .selectFrom('automation_definitions')
    .select('created_by')
    .where('id', '=', definitionId)
    .where('account_id', '=', env.ctx.accountId)
    .executeTakeFirst();
  return row?.created_by ?? null;
}

/** Reads of the metadata store for automation definitions and their steps, always within one account. */
import type { AutomationRunStatus } from '../../../shared/automations';
import type { Db } from '../../db/database';
import type { AutomationDefinitionRow, AutomationStepRow } from '../../db/schema';
import type { IntegrationRef } from './validation';

/** The definition if it belongs to the account; other accounts' ids read as missing. */
export function findDefinition(db: Db, accountId: string, id: string): Promise<AutomationDefinitionRow | undefined> {
  return db
    .selectFrom('automation_definitions')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export function listDefinitionRows(db: Db, accountId: string): Promise<AutomationDefinitionRow[]> {
  return db.selectFrom('automation_definitions').selectAll().where('account_id', '=', accountId).execute();
}

/** Steps of the given definitions, in order within each. */
export async function stepRowsOf(db: Db, definitionIds: string[]): Promise<Map<string, AutomationStepRow[]>> {
  const byDefinition = new Map<string, AutomationStepRow[]>(definitionIds.map((id) => [id, []]));
  if (definitionIds.length === 0) return byDefinition;
  const rows = await db
    .selectFrom('automation_steps')
    .selectAll()
    .where('definition_id', 'in', definitionIds)
    .orderBy('definition_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byDefinition.get(row.definition_id)?.push(row);
  return byDefinition;
}

/** The account's integrations, with the connector each one's definition uses. */
export async function integrationRefs(db: Db, accountId: string): Promise<Map<string, IntegrationRef>> {
  const rows = await db
    .selectFrom('integrations')
    .innerJoin('integration_definitions', 'integration_definitions.id', 'integrations.definition_id')
    .select([
      'integrations.id as id',
      'integrations.name as name',
      'integration_definitions.connector_key as connectorKey',
    ])
    .where('integrations.account_id', '=', accountId)
    .orderBy('integrations.name')
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface LastRun {
  id: string;
  status: AutomationRunStatus;
  startedAt: string | null;
  durationInSeconds: number | null;
}

/** The latest run of each of the account's definitions (by creation). */
export async function lastRuns(db: Db, accountId: string, now: Date): Promise<Map<string, LastRun>> {
  const rows = await db
    .selectFrom('automation_runs as r')
    .select(['r.id', 'r.definition_id', 'r.status', 'r.started_at', 'r.ended_at', 'r.created_at'])
    .where('r.account_id', '=', accountId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('automation_runs as later')
            .select('later.id')
            .whereRef('later.definition_id', '=', 'r.definition_id')
            .where(({ eb, or, and, ref }) =>
              or([
                eb('later.created_at', '>', ref('r.created_at')),
                and([eb('later.created_at', '=', ref('r.created_at')), eb('later.id', '>', ref('r.id'))]),
              ]),
            ),
        ),
      ),
    )
    .execute();
  const runs = new Map<string, LastRun>();
  for (const row of rows) {
    const started = row.started_at ? Date.parse(row.started_at) : null;
    const ended = row.ended_at ? Date.parse(row.ended_at) : started !== null ? now.getTime() : null;
    runs.set(row.definition_id, {
      id: row.id,
      status: row.status as AutomationRunStatus,
      startedAt: row.started_at,
      durationInSeconds: started !== null && ended !== null ? Math.max(0, Math.round((ended - started) / 1000)) : null,
    });
  }
  return runs;
}

export async function userNames(db: Db, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name || r.email]));
}

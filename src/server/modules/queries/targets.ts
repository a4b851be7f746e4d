/**
 * Where a catalogue table's rows are, resolved the way the tables service resolves them (one
 * account's datasets, static tables and published model versions), as the compiler's target.
 */
import type { TableType } from '../../../shared/tables';
import type { AccountContext, Deps } from '../../context';
import { notFound } from '../../errors';
import { resolveIntegrationDatasetTable } from '../integrations/dataset-tables';
import { resolveModelVersionTable } from '../models/model-tables';
import { listColumns } from '../static-tables/repo';
import { engineColumns, staticRelation, withSqlTypes, type TableRelation } from '../tables/relations';
import type { QueryTarget } from './compile';

export async function resolveRelation(
  deps: Deps,
  ctx: AccountContext,
  type: TableType,
  id: string,
): Promise<TableRelation> {
  const executor = deps.warehouse.forAccount(ctx.accountId);
  if (type === 'IntegrationDataset') return (await resolveIntegrationDatasetTable(deps.db, ctx.accountId, id)).relation;
  if (type === 'ModelVersion') return (await resolveModelVersionTable(deps.db, ctx, id, executor)).relation;
  const table = await deps.db
    .selectFrom('static_tables')
    .select(['id'])
    .where('id', '=', id)
    .where('account_id', '=', ctx.accountId)
    .executeTakeFirst();
  if (!table) throw notFound('Table not found.');
  return staticRelation(id, await listColumns(deps.db, id));
}

/** The target with the columns' SQL types when a filter compares a number (bound in its type). */
export async function resolveTarget(
  deps: Deps,
  ctx: AccountContext,
  type: TableType,
  id: string,
  filters: readonly { column: string; operator: string }[],
): Promise<{ target: QueryTarget; relation: TableRelation }> {
  const executor = deps.warehouse.forAccount(ctx.accountId);
  const relation = await withSqlTypes(executor, await resolveRelation(deps, ctx, type, id), [
    { filters: filters.map((f) => ({ columnKey: f.column, operator: f.operator as never })) },
  ]);
  return { target: { source: relation.source, columns: engineColumns(relation), rowKey: relation.rowKey }, relation };
}

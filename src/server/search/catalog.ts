/**
 * The account's searchable tables, read from the metadata store: integration datasets with data,
 * static tables and published (Active) model versions, each with where its rows are in the
 * warehouse. Only the account's own tables are listed, so nothing another account owns is indexed
 * into (or answered from) this account's index.
 */
import type { Column, TableType } from '../../shared/tables';
import type { AccountContext } from '../context';
import type { Db } from '../db/database';
import { storedColumns } from '../modules/integrations/repo';
import { ROW_ID as DATASET_ROW_ID } from '../modules/integrations/physical';
import { listModelVersionTables } from '../modules/models/model-tables';
import { listAccountVersions } from '../modules/models/repo';
import { MODEL_SCHEMA, modelViewName, referencedSources } from '../modules/models/sources';
import { ROW_ID as STATIC_ROW_ID, STATIC_SCHEMA, warehouseTableName } from '../modules/static-tables/physical';
import { listColumns } from '../modules/static-tables/repo';

export interface SearchTable {
  /** `<type>:<id>`: the table's key in the index file. */
  key: string;
  type: TableType;
  id: string;
  name: string;
  /** The integration, 'static' (static tables) or the model, and its name. */
  groupId: string;
  groupName: string;
  /** Where its rows are. */
  schema: string;
  table: string;
  columns: Column[];
  /** A column numbering rows in arrival order (new rows have larger numbers), or null. */
  rowKey: string | null;
}

export const tableKey = (type: TableType, id: string) => `${type}:${id}`;

export function parseTableKey(key: string): { type: TableType; id: string } {
  const at = key.indexOf(':');
  return { type: key.slice(0, at) as TableType, id: key.slice(at + 1) };
}

/** Text columns are what a person searches for; numbers and dates are found by filters. */
export const searchableColumns = (columns: Column[]) => columns.filter((c) => c.type === 'Text');

export async function listSearchTables(db: Db, accountId: string): Promise<SearchTable[]> {
  const datasets = await db
    .selectFrom('integration_datasets as d')
    .innerJoin('integrations as i', 'i.id', 'd.integration_id')
    .selectAll('d')
    .select(['i.name as integration_name', 'i.schema_name as schema_name'])
    .where('i.account_id', '=', accountId)
    .where('d.columns', 'is not', null)
    .where('d.table_name', 'is not', null)
    .execute();
  const statics = await db
    .selectFrom('static_tables')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .execute();
  // listModelVersionTables reads nothing of the caller but the account.
  const models = await listModelVersionTables(db, { accountId } as AccountContext);
  return [
    ...datasets.map((d): SearchTable => ({
      key: tableKey('IntegrationDataset', d.id),
      type: 'IntegrationDataset',
      id: d.id,
      name: d.name,
      groupId: d.integration_id,
      groupName: d.integration_name,
      schema: d.schema_name,
      table: d.table_name ?? '',
      columns: storedColumns(d),
      rowKey: DATASET_ROW_ID,
    })),
    ...(await Promise.all(
      statics.map(async (t): Promise<SearchTable> => ({
        key: tableKey('StaticTable', t.id),
        type: 'StaticTable',
        id: t.id,
        name: t.name,
        groupId: 'static',
        groupName: 'Tables',
        schema: STATIC_SCHEMA,
        table: warehouseTableName(t.id),
        columns: await listColumns(db, t.id),
        rowKey: STATIC_ROW_ID,
      })),
    )),
    ...models.map((m): SearchTable => ({
      key: tableKey('ModelVersion', m.id),
      type: 'ModelVersion',
      id: m.id,
      name: m.name,
      groupId: 'model',
      groupName: 'Models',
      schema: MODEL_SCHEMA,
      table: modelViewName(m.id),
      columns: m.columns,
      rowKey: null,
    })),
  ];
}

/**
 * The searchable tables whose rows change when `relations` (`schema.name`) change: those stored in
 * them, and the published model versions reading them, directly or through other model versions (a
 * version is a view, so its rows follow its sources' rows, and its source columns can disappear).
 */
export async function tablesChangedWith(
  db: Db,
  accountId: string,
  relations: ReadonlySet<string>,
): Promise<SearchTable[]> {
  const tables = await listSearchTables(db, accountId);
  const stored = new Map(tables.map((t) => [t.key, `${t.schema}.${t.table}`]));
  const relationOf = (type: TableType, id: string) =>
    type === 'ModelVersion' ? `${MODEL_SCHEMA}.${modelViewName(id)}` : stored.get(tableKey(type, id));
  const versions = (await listAccountVersions(db, accountId)).filter((v) => v.status !== 'Draft');
  const changed = new Set(relations);
  for (let grew = true; grew;) {
    grew = false;
    for (const version of versions) {
      const own = relationOf('ModelVersion', version.id) as string;
      if (changed.has(own)) continue;
      const reads = referencedSources(version.definition).map((ref) => relationOf(ref.sourceType, ref.sourceId));
      if (reads.some((relation) => relation !== undefined && changed.has(relation))) {
        changed.add(own);
        grew = true;
      }
    }
  }
  return tables.filter((t) => changed.has(`${t.schema}.${t.table}`));
}

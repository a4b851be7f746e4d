/**
 * Synced datasets as tables of the tables API (grid, count, download) and as model sources. A
 * dataset is a table once its first sync (or webhook call) has written rows.
 */
import type { Column, TableSummary } from '../../../shared/tables';
import type { Db } from '../../db/database';
import { notFound } from '../../errors';
import type { TableRelation } from '../tables/relations';
import { ROW_ID } from './physical';
import { storedColumns, type DatasetRow } from './repo';

export interface IntegrationDatasetTable {
  summary: TableSummary;
  relation: TableRelation;
  rowEstimate: number | null;
  /** Where the rows are: the integration's schema and the dataset's table. */
  schema: string;
  table: string;
}

interface Joined extends DatasetRow {
  integration_name: string;
  schema_name: string;
}

function datasetQuery(db: Db, accountId: string) {
  return db
    .selectFrom('integration_datasets as d')
    .innerJoin('integrations as i', 'i.id', 'd.integration_id')
    .selectAll('d')
    .select(['i.name as integration_name', 'i.schema_name as schema_name'])
    .where('i.account_id', '=', accountId)
    .where('d.columns', 'is not', null);
}

function tableOf(row: Joined): IntegrationDatasetTable {
  const columns: Column[] = storedColumns(row);
  return {
    summary: {
      id: row.id,
      type: 'IntegrationDataset',
      groupId: row.integration_id,
      groupName: row.integration_name,
      name: row.name,
      columns,
      status: 'Active',
    },
    relation: { source: { kind: 'table', schema: row.schema_name, name: row.table_name }, columns, rowKey: ROW_ID },
    rowEstimate: row.row_count,
    schema: row.schema_name,
    table: row.table_name,
  };
}

/** The account's dataset, if it has data; other accounts' ids read as missing. */
export async function findIntegrationDatasetTable(
  db: Db,
  accountId: string,
  datasetId: string,
): Promise<IntegrationDatasetTable | null> {
  const row = await datasetQuery(db, accountId).where('d.id', '=', datasetId).executeTakeFirst();
  return row ? tableOf(row) : null;
}

export async function resolveIntegrationDatasetTable(
  db: Db,
  accountId: string,
  datasetId: string,
): Promise<IntegrationDatasetTable> {
  const table = await findIntegrationDatasetTable(db, accountId, datasetId);
  if (!table) throw notFound('Table not found.');
  return table;
}

/** Every dataset with data, by integration then dataset position. */
export async function listIntegrationDatasetTables(db: Db, accountId: string): Promise<TableSummary[]> {
  const rows = await datasetQuery(db, accountId).orderBy('i.name').orderBy('d.position').execute();
  return rows.map((row) => tableOf(row).summary);
}

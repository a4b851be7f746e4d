/**
 * What the source database holds: tables, views and materialized views of the user's schemas
 * (never pg_catalog, information_schema, TOAST or temporary schemas, nor partitions: their parent
 * table is read instead), their columns typed for the warehouse, and primary keys.
 */
import type pg from 'pg';
import type { ColumnType } from '../../../../../shared/tables';
import type { DiscoveredDataset, DiscoveredProperty } from '../types';

export interface SourceColumn {
  name: string;
  type: ColumnType;
  /** format_type(): the column's full PostgreSQL type, e.g. 'numeric(10,2)', 'integer[]'. */
  sourceType: string;
  isPrimaryKey: boolean;
  description: string | null;
}

export interface SourceTable {
  schema: string;
  table: string;
  /** `table` for the public schema, `schema.table` otherwise. */
  datasetName: string;
  columns: SourceColumn[];
  primaryKey: string[];
}

const CATALOG_QUERY = `
SELECT n.nspname AS schema, c.relname AS table, a.attname AS column, t.typname AS type_name,
       t.typcategory AS category, format_type(a.atttypid, a.atttypmod) AS source_type,
       col_description(c.oid, a.attnum) AS description,
       (SELECT array_position(i.indkey::int2[], a.attnum)
          FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary) AS pk_position
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
 WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
   AND NOT c.relispartition
   AND n.nspname NOT IN ('pg_catalog', 'information_schema')
   AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp\\_%'
   AND has_table_privilege(c.oid, 'SELECT')
   AND (cardinality($1::text[]) = 0 OR n.nspname = ANY($1::text[]))
 ORDER BY n.nspname, c.relname, a.attnum`;

interface CatalogRow {
  schema: string;
  table: string;
  column: string;
  type_name: string;
  category: string;
  source_type: string;
  description: string | null;
  pk_position: number | null;
}

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);

/** The warehouse type of a PostgreSQL type (pg_type.typname and typcategory). */
export function columnTypeOf(typeName: string, category: string): ColumnType {
  if (category === 'A') return 'Array';
  if (NUMBER_TYPES.has(typeName)) return 'Number';
  if (typeName === 'bool') return 'Boolean';
  if (typeName === 'date') return 'Date';
  if (typeName === 'timestamp' || typeName === 'timestamptz') return 'DateTime';
  if (typeName === 'json' || typeName === 'jsonb') return 'Json';
  return 'Text'; // text, varchar, uuid, money, time, interval, bytea, enums, ranges, network types...
}

export async function readCatalog(client: pg.Client, schemas: string[]): Promise<SourceTable[]> {
  const { rows } = await client.query<CatalogRow>(CATALOG_QUERY, [schemas]);
  const tables = new Map<string, SourceTable & { pk: { name: string; position: number }[] }>();
  for (const row of rows) {
    const key = JSON.stringify([row.schema, row.table]);
    let table = tables.get(key);
    if (!table) {
      const datasetName = row.schema === 'public' ? row.table : `${row.schema}.${row.table}`;
      table = { schema: row.schema, table: row.table, datasetName, columns: [], primaryKey: [], pk: [] };
      tables.set(key, table);
    }
    table.columns.push({
      name: row.column,
      type: columnTypeOf(row.type_name, row.category),
      sourceType: row.source_type,
      isPrimaryKey: row.pk_position !== null,
      description: row.description,
    });
    if (row.pk_position !== null) table.pk.push({ name: row.column, position: row.pk_position });
  }
  return [...tables.values()].map(({ pk, ...table }) => ({
    ...table,
    primaryKey: pk.sort((a, b) => a.position - b.position).map((p) => p.name),
  }));
}

/** Columns that can order an incremental read: numbers and timestamps. */
export function canBeCursor(column: SourceColumn): boolean {
  return column.type === 'Number' || column.type === 'Date' || column.type === 'DateTime';
}

/** A usual "last changed" column, offered as the default cursor; the user may pick another. */
const CHANGE_COLUMN = /^(updated|modified|last_modified|last_updated|changed)(_at|_on|_time)?$/i;

export function toDataset(table: SourceTable): DiscoveredDataset {
  const cursorField = table.columns.find((c) => c.type === 'DateTime' && CHANGE_COLUMN.test(c.name))?.name ?? null;
  const properties = table.columns.map((c): DiscoveredProperty => {
    const property: DiscoveredProperty = {
      name: c.name,
      type: c.type,
      isPrimaryKey: c.isPrimaryKey,
      isCursor: c.name === cursorField,
      format: c.sourceType,
    };
    if (c.description) property.description = c.description;
    return property;
  });
  const hasCursor = table.columns.some(canBeCursor);
  return {
    name: table.datasetName,
    properties,
    supportedSyncTypes: hasCursor ? ['FullRefresh', 'Incremental'] : ['FullRefresh'],
    supportedIngestionTypes:
      table.primaryKey.length > 0 ? ['Overwrite', 'Append', 'AppendDedup'] : ['Overwrite', 'Append'],
    primaryKey: table.primaryKey,
    cursorField,
  };
}

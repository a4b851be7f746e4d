/**
 * What the source database holds: tables, views and materialized views of the user's schemas
 * (never pg_catalog, information_schema, TOAST or temporary schemas, nor partitions: their parent
 * table is read instead), their columns typed for the warehouse, and primary keys.
 */
import type pg from 'pg';
import type { ColumnType } from '../../../../../shared/tables';
import {
  columnTypeOfFormat,
  EXACT_DECIMAL,
  formatText,
  MAX_DECIMAL_DIGITS,
  TEXT,
  type StorageFormat,
} from '../formats';
import type { DiscoveredDataset, DiscoveredProperty } from '../types';

export interface SourceColumn {
  name: string;
  type: ColumnType;
  /** How the warehouse stores it (formats.ts). */
  format: StorageFormat;
  /** format_type(): the column's full PostgreSQL type, e.g. 'numeric(10,2)', 'integer[]'. */
  sourceType: string;
  /** An array's element type (pg_type.typname, domains followed to their base), else null. */
  elementType: string | null;
  isPrimaryKey: boolean;
  description: string | null;
}

export interface SourceTable {
  schema: string;
  table: string;
  /** `table` for the public schema, `schema.table` otherwise, each part quoted where needed (datasetNameOf). */
  datasetName: string;
  columns: SourceColumn[];
  primaryKey: string[];
}

/**
 * Columns with their type as the warehouse needs it: a domain is read as its base type (followed
 * through domains of domains), an array by its element type.
 */
const CATALOG_QUERY = `
WITH RECURSIVE domain_base AS (
  SELECT t.oid AS domain_oid, t.typbasetype AS base_oid, t.typtypmod AS base_typmod, 1 AS depth
    FROM pg_type t WHERE t.typtype = 'd'
  UNION ALL
  SELECT d.domain_oid, t.typbasetype, t.typtypmod, d.depth + 1
    FROM domain_base d JOIN pg_type t ON t.oid = d.base_oid
   WHERE t.typtype = 'd' AND d.depth < 32
), resolved AS (
  SELECT DISTINCT ON (domain_oid) domain_oid, base_oid, base_typmod
    FROM domain_base ORDER BY domain_oid, depth DESC
)
SELECT n.nspname AS schema, c.relname AS table, a.attname AS column,
       bt.typname AS type_name, bt.typcategory AS category,
       et.typname AS element_name, et.typcategory AS element_category,
       format_type(coalesce(r.base_oid, a.atttypid), CASE WHEN r.base_oid IS NULL THEN a.atttypmod ELSE r.base_typmod END) AS base_type,
       format_type(a.atttypid, a.atttypmod) AS source_type,
       col_description(c.oid, a.attnum) AS description,
       (SELECT array_position(i.indkey::int2[], a.attnum)
          FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary) AS pk_position
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN resolved r ON r.domain_oid = a.atttypid
  JOIN pg_type bt ON bt.oid = coalesce(r.base_oid, a.atttypid)
  LEFT JOIN resolved er ON er.domain_oid = bt.typelem
  LEFT JOIN pg_type et ON bt.typcategory = 'A' AND et.oid = coalesce(er.base_oid, bt.typelem)
 WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
   AND NOT c.relispartition
   AND n.nspname NOT IN ('pg_catalog', 'information_schema')
   AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp\\_%'
   AND has_table_privilege(c.oid, 'SELECT')
   AND (cardinality($1::text[]) = 0 OR n.nspname = ANY($1::text[]))
 ORDER BY n.nspname, c.relname, a.attnum`;

/**
 * A part of a dataset name: as it is, or in double quotes (inner quotes doubled) when it holds a dot
 * or a quote, so no two tables share a name: `"a.b".c` and `a."b.c"`, the public `"x.y"` and `x.y`
 * of schema x. Names without either are written as before.
 */
function namePart(part: string): string {
  return /[."]/.test(part) ? `"${part.replaceAll('"', '""')}"` : part;
}

/** The dataset of a table: `table` in the public schema, `schema.table` in others, parts quoted where needed. */
export function datasetNameOf(schema: string, table: string): string {
  return schema === 'public' ? namePart(table) : `${namePart(schema)}.${namePart(table)}`;
}

/** The name a table's dataset had before its parts were quoted (two tables could share it). */
const formerNameOf = (schema: string, table: string) => (schema === 'public' ? table : `${schema}.${table}`);

interface CatalogRow {
  schema: string;
  table: string;
  column: string;
  type_name: string;
  category: string;
  element_name: string | null;
  element_category: string | null;
  base_type: string;
  source_type: string;
  description: string | null;
  pk_position: number | null;
}

const SCALARS: Record<string, StorageFormat> = {
  int2: { kind: 'int', bits: 16, unsigned: false },
  int4: { kind: 'int', bits: 32, unsigned: false },
  int8: { kind: 'int', bits: 64, unsigned: false },
  oid: { kind: 'int', bits: 64, unsigned: false },
  float4: { kind: 'float' },
  float8: { kind: 'double' },
  bool: { kind: 'boolean' },
  date: { kind: 'date' },
  timestamp: { kind: 'timestamp', unit: 'us' },
  timestamptz: { kind: 'timestamptz' },
  time: { kind: 'time', zoned: false },
  timetz: { kind: 'time', zoned: true },
  interval: { kind: 'interval' },
  uuid: { kind: 'uuid' },
  bytea: { kind: 'bytes' },
  json: { kind: 'json' },
  jsonb: { kind: 'json' },
};

/**
 * numeric(p,s) with p up to 38 (and s >= 0) is DECIMAL(p,s); numeric without a precision, or wider
 * than DuckDB's 38 digits, is an exact decimal whose digits the data decides (formats.ts).
 */
function numericFormat(typeText: string): StorageFormat {
  const match = /^numeric\((\d+),(-?\d+)\)/.exec(typeText);
  if (!match) return EXACT_DECIMAL;
  const precision = Number(match[1]);
  const scale = Number(match[2]);
  if (precision > MAX_DECIMAL_DIGITS || scale < 0 || scale > precision) return EXACT_DECIMAL;
  return { kind: 'decimal', precision, scale };
}

/** Scalar types by pg_type.typname (the text of format_type for numeric's precision). */
function scalarFormat(typeName: string, typeText: string): StorageFormat {
  if (typeName === 'numeric') return numericFormat(typeText);
  return SCALARS[typeName] ?? TEXT; // text, varchar, char, enums, money, ranges, network types, ...
}

/** Array element types that become typed lists; the others are lists of their text. */
function elementFormat(typeName: string, typeText: string): StorageFormat {
  const format = scalarFormat(typeName, typeText.replace(/\[\]$/, ''));
  switch (format.kind) {
    case 'exact-decimal':
    case 'interval':
    case 'bytes':
      return TEXT;
    default:
      return format;
  }
}

/** The storage of a PostgreSQL column (base type of domains; typed lists for arrays). */
export function formatOf(
  row: Pick<CatalogRow, 'type_name' | 'category' | 'element_name' | 'base_type'>,
): StorageFormat {
  if (row.category === 'A') {
    const element = elementFormat(row.element_name ?? 'text', row.base_type);
    // Arrays of JSON are one JSON document: JSON lists would rewrite each element's numbers.
    return element.kind === 'json' ? element : { kind: 'list', element };
  }
  return scalarFormat(row.type_name, row.base_type);
}

/** The column type users see for a PostgreSQL type (pg_type.typname and typcategory). */
export function columnTypeOf(typeName: string, category: string): ColumnType {
  return columnTypeOfFormat(formatOf({ type_name: typeName, category, element_name: null, base_type: typeName }));
}

export async function readCatalog(client: pg.Client, schemas: string[]): Promise<SourceTable[]> {
  const { rows } = await client.query<CatalogRow>(CATALOG_QUERY, [schemas]);
  const tables = new Map<string, SourceTable & { pk: { name: string; position: number }[] }>();
  for (const row of rows) {
    const key = JSON.stringify([row.schema, row.table]);
    let table = tables.get(key);
    if (!table) {
      const datasetName = datasetNameOf(row.schema, row.table);
      table = { schema: row.schema, table: row.table, datasetName, columns: [], primaryKey: [], pk: [] };
      tables.set(key, table);
    }
    const format = formatOf(row);
    table.columns.push({
      name: row.column,
      type: columnTypeOfFormat(format),
      format,
      sourceType: row.source_type,
      elementType: row.element_name,
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

/**
 * The datasets of the tables. A dataset named otherwise before (a part with a dot or a quote) says
 * its former name when no other table had it, so discovery keeps the user's choices for it.
 */
export function toDatasets(tables: SourceTable[]): DiscoveredDataset[] {
  const formerNames = tables.map((t) => formerNameOf(t.schema, t.table));
  const holders = new Map<string, number>();
  for (const former of formerNames) holders.set(former, (holders.get(former) ?? 0) + 1);
  return tables.map((table, i) => {
    const dataset = toDataset(table);
    const former = formerNames[i]!;
    return former !== dataset.name && holders.get(former) === 1 ? { ...dataset, formerName: former } : dataset;
  });
}

export function toDataset(table: SourceTable): DiscoveredDataset {
  const cursorField = table.columns.find((c) => c.type === 'DateTime' && CHANGE_COLUMN.test(c.name))?.name ?? null;
  const properties = table.columns.map((c): DiscoveredProperty => {
    const property: DiscoveredProperty = {
      name: c.name,
      type: c.type,
      isPrimaryKey: c.isPrimaryKey,
      isCursor: c.name === cursorField,
      format: formatText(c.format),
      // A multi-dimensional array does not fit a list: the column keeps its JSON text instead.
      ...(c.format.kind === 'list' ? { onMisfit: 'text' as const } : {}),
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

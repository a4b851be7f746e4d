/**
 * Writing a source's rows into a table of a PostgreSQL integration, exactly once per idempotency
 * key. The whole write (create or empty the table, every row, and a marker row naming the key in
 * `workspace_automation_writes` of the target schema) is ONE transaction: it commits whole or not
 * at all, and a resumed attempt that finds its marker writes nothing again. So replace is atomic,
 * and append cannot write rows twice after a crash (at worst it wrote none and writes them now).
 *
 * Values cross as text and are cast in PostgreSQL: DuckDB prints each value in a form PostgreSQL
 * reads exactly (decimals with all digits, booleans as words, bytes as \x hex, lists as JSON), the
 * rows are bound as text arrays (`unnest($1::text[], ...)`) and cast to each column's type: the
 * reverse of the connector's read mapping (connectors/postgres/catalog.ts). Identifiers are quoted
 * by pg's escapeIdentifier; every value is a bound parameter.
 */
import pg from 'pg';
import type { CompiledQuery } from '../../../../engine/sql';
import { quoteIdentifier } from '../../../warehouse/quote';
import type { OutboundPolicy } from '../../../net/outbound-policy';
import { closeQuietly, connect, toConnectorError } from '../../integrations/connectors/postgres/connection';
import { parsePostgresConfig } from '../../integrations/connectors/postgres/spec';
import type { ConnectorConfig } from '../../integrations/connectors/types';
import type { WarehouseConnection } from '../../../warehouse/types';
import { configError, StepError } from '../step-errors';

const { escapeIdentifier: ident } = pg;

export const PG_MODES = ['create', 'replace', 'append', 'upsert'] as const;
export type PgMode = (typeof PG_MODES)[number];
export const MARKER_TABLE = 'workspace_automation_writes';

/** How a warehouse column is written: its text in DuckDB, its type and cast in PostgreSQL. */
export interface ColumnPlan {
  header: string;
  pgType: string;
  /** DuckDB expression giving the value's text (null stays null). */
  text: (sql: string) => string;
  /** PostgreSQL expression casting the text back. */
  cast: (sql: string) => string;
}

const SCALARS: Record<string, string> = {
  BOOLEAN: 'boolean',
  TINYINT: 'smallint',
  UTINYINT: 'smallint',
  SMALLINT: 'smallint',
  USMALLINT: 'integer',
  INTEGER: 'integer',
  UINTEGER: 'bigint',
  BIGINT: 'bigint',
  UBIGINT: 'numeric(20,0)',
  HUGEINT: 'numeric(39,0)',
  UHUGEINT: 'numeric(39,0)',
  FLOAT: 'real',
  DOUBLE: 'double precision',
  VARCHAR: 'text',
  DATE: 'date',
  TIMESTAMP: 'timestamp',
  TIMESTAMP_S: 'timestamp(0)',
  TIMESTAMP_MS: 'timestamp(3)',
  // PostgreSQL's timestamps hold microseconds and would round nanoseconds: their ISO text is exact.
  TIMESTAMP_NS: 'text',
  'TIMESTAMP WITH TIME ZONE': 'timestamptz',
  TIME: 'time',
  'TIME WITH TIME ZONE': 'timetz',
  INTERVAL: 'interval',
  UUID: 'uuid',
  BLOB: 'bytea',
  JSON: 'jsonb',
};

const plainText = (sql: string) => `CAST(${sql} AS VARCHAR)`;
const floatText = (sql: string) =>
  `CASE WHEN isnan(${sql}) THEN 'NaN' WHEN isinf(${sql}) AND ${sql} > 0 THEN 'Infinity' WHEN isinf(${sql}) THEN '-Infinity' ELSE CAST(${sql} AS VARCHAR) END`;
const blobText = (sql: string) => `CASE WHEN ${sql} IS NULL THEN NULL ELSE '\\x' || lower(hex(${sql})) END`;
const jsonText = (sql: string) => `CAST(to_json(${sql}) AS VARCHAR)`;

/** A scalar DuckDB type's PostgreSQL type, or null when it is not a scalar this maps. */
function scalarType(sqlType: string): string | null {
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(sqlType);
  if (decimal) return `numeric(${decimal[1]},${decimal[2]})`;
  if (sqlType.startsWith('ENUM(')) return 'text';
  return SCALARS[sqlType] ?? null;
}

export function columnPlan(header: string, sqlType: string): ColumnPlan {
  const type = sqlType.trim().toUpperCase();
  const list = /^(.+)\[\]$/.exec(type);
  if (list) {
    const element = scalarType(list[1] as string);
    if (element && element !== 'bytea' && element !== 'jsonb') {
      return {
        header,
        pgType: `${element}[]`,
        text: jsonText,
        cast: (v) =>
          `CASE WHEN ${v} IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(${v}::jsonb))::${element}[] END`,
      };
    }
    return { header, pgType: 'jsonb', text: jsonText, cast: (v) => `${v}::jsonb` };
  }
  const scalar = scalarType(type);
  if (!scalar) return { header, pgType: 'jsonb', text: jsonText, cast: (v) => `${v}::jsonb` }; // STRUCT, MAP, UNION
  const text = type === 'FLOAT' || type === 'DOUBLE' ? floatText : type === 'BLOB' ? blobText : plainText;
  return { header, pgType: scalar, text, cast: (v) => `${v}::${scalar}` };
}

/** `schema.table` or `table` (schema public); a quoted name may hold dots: "my.schema"."t". */
export function parseTableName(text: string): { schema: string; table: string } {
  const parts: string[] = [];
  const pattern = /\s*(?:"((?:[^"]|"")+)"|([^".]+))\s*(\.|$)/gy;
  let match: RegExpExecArray | null;
  let end = 0;
  while (end < text.length && (match = pattern.exec(text)) !== null) {
    parts.push(match[1] !== undefined ? match[1].replace(/""/g, '"') : (match[2] as string).trim());
    end = pattern.lastIndex;
    if (match[3] === '') break;
  }
  if (end !== text.length || parts.length === 0 || parts.length > 2 || parts.some((p) => p === ''))
    throw configError(`'${text}' is not a table name (table or schema.table).`);
  return parts.length === 2
    ? { schema: parts[0] as string, table: parts[1] as string }
    : { schema: 'public', table: parts[0] as string };
}

export interface PgWrite {
  config: ConnectorConfig;
  network: OutboundPolicy;
  table: { schema: string; table: string };
  mode: PgMode;
  /** Headers of the key columns (upsert). */
  keys: string[];
  columns: ColumnPlan[];
  /** The source's rows as text, one column per plan, in order. */
  rows: CompiledQuery;
  key: string;
  signal: AbortSignal;
  onRows(written: number): void;
}

const BATCH_ROWS = 2_000;

/** The source's rows as text columns c0..cn-1 (DuckDB side). */
export function textQuery(columns: ColumnPlan[], source: CompiledQuery): CompiledQuery {
  const select = columns
    .map((c, i) => `${c.text(`source.${quoteIdentifier(c.header)}`)} AS ${quoteIdentifier(`c${i}`)}`)
    .join(', ');
  return { sql: `SELECT ${select} FROM (${source.sql}) AS source`, parameters: source.parameters };
}

/** The write; answers the rows written, or those of the earlier write when the key's marker is there. */
export async function writePostgres(
  warehouse: WarehouseConnection,
  write: PgWrite,
): Promise<{ rows: number; already: boolean }> {
  const config = parsePostgresConfig(write.config);
  const client = await connect(config, write.network, write.signal);
  // Cancelling ends the connection: the open transaction is rolled back by the server.
  const abort = () => void closeQuietly(client);
  write.signal.addEventListener('abort', abort, { once: true });
  const target = `${ident(write.table.schema)}.${ident(write.table.table)}`;
  const marker = `${ident(write.table.schema)}.${ident(MARKER_TABLE)}`;
  try {
    await client.query('BEGIN');
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${marker} (key text PRIMARY KEY, table_name text NOT NULL, rows bigint NOT NULL, written_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = await client.query<{ rows: string }>(`SELECT rows::text AS rows FROM ${marker} WHERE key = $1`, [
      write.key,
    ]);
    if (done.rows[0]) {
      await client.query('ROLLBACK');
      return { rows: Number(done.rows[0].rows), already: true };
    }
    const exists = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [target]);
    const found = exists.rows[0]?.found === true;
    const definition = write.columns.map((c) => `${ident(c.header)} ${c.pgType}`);
    if (write.mode === 'upsert') definition.push(`PRIMARY KEY (${write.keys.map(ident).join(', ')})`);
    const create = `CREATE TABLE ${target} (${definition.join(', ')})`;
    if (found && write.mode === 'create')
      throw configError(
        `The table ${write.table.schema}.${write.table.table} already exists: choose replace or append.`,
      );
    if (!found) await client.query(create);
    else if (write.mode === 'replace') await client.query(`TRUNCATE TABLE ${target}`);

    const names = write.columns.map((c) => ident(c.header)).join(', ');
    const from = `unnest(${write.columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${write.columns
      .map((_, i) => `c${i}`)
      .join(', ')})`;
    const casts = write.columns.map((c, i) => c.cast(`u.c${i}`)).join(', ');
    let conflict = '';
    if (write.mode === 'upsert') {
      const others = write.columns.filter((c) => !write.keys.includes(c.header));
      conflict = ` ON CONFLICT (${write.keys.map(ident).join(', ')}) DO ${
        others.length === 0
          ? 'NOTHING'
          : `UPDATE SET ${others.map((c) => `${ident(c.header)} = EXCLUDED.${ident(c.header)}`).join(', ')}`
      }`;
    }
    const insert = `INSERT INTO ${target} (${names}) SELECT ${casts} FROM ${from}${conflict}`;

    let written = 0;
    let batch: (string | null)[][] = write.columns.map(() => []);
    let size = 0;
    const flush = async () => {
      if (size === 0) return;
      await client.query(insert, batch);
      written += size;
      write.onRows(written);
      batch = write.columns.map(() => []);
      size = 0;
    };
    for await (const chunk of warehouse.stream(textQuery(write.columns, write.rows))) {
      write.signal.throwIfAborted();
      for (const row of chunk) {
        write.columns.forEach((_, i) => {
          const value = row[`c${i}`];
          (batch[i] as (string | null)[]).push(value === null || value === undefined ? null : String(value));
        });
        size++;
        if (size >= BATCH_ROWS) await flush();
      }
    }
    await flush();
    await client.query(`INSERT INTO ${marker} (key, table_name, rows) VALUES ($1, $2, $3)`, [
      write.key,
      `${write.table.schema}.${write.table.table}`,
      written,
    ]);
    await client.query('COMMIT');
    return { rows: written, already: false };
  } catch (error) {
    write.signal.throwIfAborted();
    await client.query('ROLLBACK').catch(() => undefined);
    if (error instanceof StepError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === '21000')
      throw configError('The key columns do not identify the rows uniquely: two rows have the same key.');
    if (code === '42P10')
      throw configError('The table has no primary key or unique index on the key columns, which upsert needs.');
    if (code === '42P07' || code === '42703' || code === '42804' || code === '22P02' || code === '23505')
      throw configError(`PostgreSQL refused the write: ${(error as Error).message.split('\n')[0]}`);
    throw toConnectorError(error, config);
  } finally {
    write.signal.removeEventListener('abort', abort);
    await closeQuietly(client);
  }
}

/**
 * The PostgreSQL connector (definition type Database). Reads run in one REPEATABLE READ READ ONLY
 * transaction, so the incremental upper bound (max cursor) and the copied rows come from the same
 * snapshot: nothing committed meanwhile is skipped, it is simply read by the next sync. Rows go
 * through COPY ... TO STDOUT as CSV files (see copy-to-files.ts) for DuckDB to load directly.
 * COPY takes no bind parameters, so the saved cursor is inlined with escapeLiteral and cast to the
 * column's own type; identifiers always go through escapeIdentifier.
 */
import pg from 'pg';
import type { OutboundPolicy } from '../../../../net/outbound-policy';
import type { Connector, ConnectorConfig, ConnectorContext, DiscoveredDataset, ReadItem, ReadRequest } from '../types';
import { ConnectorError } from '../types';
import { canBeCursor, readCatalog, toDataset, type SourceColumn, type SourceTable } from './catalog';
import { closeQuietly, connect, toConnectorError } from './connection';
import { copyToCsvFiles } from './copy-to-files';
import { parsePostgresConfig, type PostgresConfig } from './spec';

export { postgresSpecification } from './spec';

const { escapeIdentifier: ident, escapeLiteral: literal } = pg;

interface PgContext extends ConnectorContext {
  network: OutboundPolicy;
}

async function withClient<T>(
  config: PostgresConfig,
  ctx: PgContext,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = await connect(config, ctx.network, ctx.signal);
  try {
    return await work(client);
  } catch (error) {
    throw toConnectorError(error, config);
  } finally {
    await closeQuietly(client);
  }
}

async function check(raw: ConnectorConfig, ctx: PgContext): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const config = parsePostgresConfig(raw);
    await withClient(config, ctx, (client) => client.query('SELECT 1'));
    return { ok: true };
  } catch (error) {
    if (error instanceof ConnectorError) return { ok: false, message: error.message };
    throw error;
  }
}

async function discover(raw: ConnectorConfig, ctx: PgContext): Promise<DiscoveredDataset[]> {
  const config = parsePostgresConfig(raw);
  const tables = await withClient(config, ctx, (client) => readCatalog(client, config.schemas));
  return tables.map(toDataset);
}

/** The SELECT list: values printed so the warehouse reads them back (arrays as JSON, booleans as words). */
function selectExpression(column: SourceColumn): string {
  const name = ident(column.name);
  if (column.type === 'Array') return `to_json(${name}) AS ${name}`;
  if (column.type === 'Boolean') return `${name}::text AS ${name}`;
  return name;
}

function pickColumns(table: SourceTable, properties: string[]): SourceColumn[] {
  if (properties.length === 0) return table.columns;
  return properties.map((name) => {
    const column = table.columns.find((c) => c.name === name);
    if (!column) {
      throw new ConnectorError(
        `Column '${name}' no longer exists in ${table.datasetName}: refresh datasets`,
        'ConfigError',
      );
    }
    return column;
  });
}

async function* read(raw: ConnectorConfig, request: ReadRequest, ctx: PgContext): AsyncGenerator<ReadItem> {
  const config = parsePostgresConfig(raw);
  const client = await connect(config, ctx.network, ctx.signal);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const table = (await readCatalog(client, [])).find((t) => t.datasetName === request.dataset);
    if (!table) throw new ConnectorError(`Table '${request.dataset}' was not found or may not be read`, 'ConfigError');
    const columns = pickColumns(table, request.properties);
    const from = `${ident(table.schema)}.${ident(table.table)}`;
    let where = '';
    let orderBy = '';
    let nextState: unknown = undefined;

    if (request.syncType === 'Incremental') {
      const cursor = table.columns.find((c) => c.name === request.cursorField);
      if (!cursor || !canBeCursor(cursor)) {
        throw new ConnectorError(
          `Incremental sync of ${table.datasetName} needs a numeric or time cursor column`,
          'ConfigError',
        );
      }
      const saved = (request.state as { cursor?: unknown } | null)?.cursor;
      const cursorSql = ident(cursor.name);
      if (typeof saved === 'string' || typeof saved === 'number') {
        where = ` WHERE ${cursorSql} > CAST(${literal(String(saved))} AS ${cursor.sourceType})`;
        ctx.log('INFO', `Reading ${table.datasetName} where ${cursor.name} > ${saved}`);
      }
      orderBy = ` ORDER BY ${cursorSql}`;
      const max = await client.query<{ max: string | null }>(
        `SELECT max(${cursorSql})::text AS max FROM ${from}${where}`,
      );
      const newMax = max.rows[0]?.max ?? null;
      if (newMax === null) {
        ctx.log('INFO', `No new rows in ${table.datasetName}`);
        if (saved !== undefined) yield { kind: 'state', state: request.state };
        return;
      }
      nextState = { cursor: newMax };
    }

    const sql = `SELECT ${columns.map(selectExpression).join(', ')} FROM ${from}${where}${orderBy}`;
    let rows = 0;
    const files = copyToCsvFiles(client, sql, {
      dir: ctx.tempDir,
      baseName: `pg-${table.datasetName.replace(/[^A-Za-z0-9_-]/g, '_')}`,
      rowsPerFile: config.rowsPerFile,
      signal: ctx.signal,
    });
    for await (const file of files) {
      rows += file.rows;
      yield { kind: 'file', path: file.path, format: 'csv', rows: file.rows };
    }
    await client.query('COMMIT');
    ctx.log('INFO', `Copied ${rows} rows of ${table.datasetName}`);
    if (nextState !== undefined) yield { kind: 'state', state: nextState };
  } catch (error) {
    throw toConnectorError(error, config);
  } finally {
    await closeQuietly(client);
  }
}

/** The connector, its connections under the server's outbound policy. */
export function createPostgresConnector(network: OutboundPolicy): Connector {
  return {
    key: 'postgres',
    check: (raw, ctx) => check(raw, { ...ctx, network }),
    discover: (raw, ctx) => discover(raw, { ...ctx, network }),
    read: (raw, request, ctx) => read(raw, request, { ...ctx, network }),
  };
}

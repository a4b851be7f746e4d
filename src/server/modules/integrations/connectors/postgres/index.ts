/**
 * The PostgreSQL connector (definition type Database). Reads run in one REPEATABLE READ READ ONLY
 * transaction, so the incremental upper bound (max cursor) and the copied rows come from the same
 * snapshot: nothing committed meanwhile is skipped, it is simply read by the next sync. The lower
 * bound is inclusive (`>=` the saved cursor), so rows written later with an equal cursor are read, and
 * rows without a cursor value (NULL, which no bound reaches) are read by every sync. Rows go
 * through COPY ... TO STDOUT as CSV files (see copy-to-files.ts) for DuckDB to load directly.
 * COPY takes no bind parameters, so the saved cursor is inlined with escapeLiteral and cast to the
 * column's own type; identifiers always go through escapeIdentifier.
 */
import pg from 'pg';
import type { OutboundPolicy } from '../../../../net/outbound-policy';
import type { Connector, ConnectorConfig, ConnectorContext, DiscoveredDataset, ReadItem, ReadRequest } from '../types';
import { ConnectorError } from '../types';
import { canBeCursor, readCatalog, toDatasets, type SourceColumn, type SourceTable } from './catalog';
import { closeQuietly, connect, toConnectorError } from './connection';
import { copyToCsvFiles } from './copy-to-files';
import { parsePostgresConfig, type PostgresConfig } from './spec';
import type { StorageFormat } from '../formats';

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
  return toDatasets(tables);
}

/**
 * An element of a date or time array as text DuckDB reads exactly. PostgreSQL prints BC dates as
 * `0044-03-15 BC`: in a list DuckDB would read that as AD, so elements before the year 1 are printed
 * with ISO 8601's astronomical year (1 BC is year 0, 44 BC is -0043). Scalar columns are printed by
 * PostgreSQL as they are and respelled in the warehouse (staging/stage-sql.ts), which is cheaper.
 */
function temporalText(sql: string, format: StorageFormat): string {
  const kind = format.kind;
  const first =
    kind === 'date'
      ? `DATE '0001-01-01'`
      : kind === 'timestamptz'
        ? `TIMESTAMPTZ '0001-01-01 00:00:00+00'`
        : `TIMESTAMP '0001-01-01 00:00:00'`;
  const rest =
    kind === 'date' ? `'-MM-DD'` : kind === 'timestamptz' ? `'-MM-DD HH24:MI:SS.US"+00"'` : `'-MM-DD HH24:MI:SS.US'`;
  const year = `to_char(${sql}, 'YYYY')::int`;
  const astronomical = `CASE WHEN ${year} = 1 THEN '0000' ELSE '-' || lpad((${year} - 1)::text, 4, '0') END`;
  return `CASE WHEN ${sql} < ${first} AND isfinite(${sql}) THEN ${astronomical} || to_char(${sql}, ${rest}) ELSE ${sql}::text END`;
}

/** An interval as its three parts (months, days, microseconds), which DuckDB keeps apart too. */
function intervalText(sql: string): string {
  return (
    `(extract(year from ${sql}) * 12 + extract(month from ${sql}))::text || ' months ' || ` +
    `extract(day from ${sql})::text || ' days ' || ` +
    `((extract(hour from ${sql}) * 3600 + extract(minute from ${sql}) * 60) * 1000000 + extract(microseconds from ${sql}))::text || ' microseconds'`
  );
}

/** A one-dimensional array of dates or times as JSON, each element printed by temporalText. */
function temporalListText(sql: string, element: StorageFormat): string {
  const each = temporalText('x', element);
  return (
    `CASE WHEN array_ndims(${sql}) = 1 THEN ` +
    `(SELECT json_agg(${each} ORDER BY o) FROM unnest(${sql}) WITH ORDINALITY AS u(x, o)) ELSE to_json(${sql}) END`
  );
}

/**
 * The SELECT list: each value printed as the canonical text of its storage format (staging casts
 * it as it is): booleans as words, bytea as hex, intervals as their parts, arrays as JSON (numeric
 * elements as strings, so no digit passes through a double; BC dates in ISO years).
 */
function selectExpression(column: SourceColumn): string {
  const name = ident(column.name);
  const { format } = column;
  const expression = (() => {
    switch (format.kind) {
      case 'boolean':
        return `${name}::text`;
      case 'bytes':
        return `encode(${name}, 'hex')`;
      case 'interval':
        return intervalText(name);
      case 'list': {
        const element = format.element;
        if (element.kind === 'date' || element.kind === 'timestamp' || element.kind === 'timestamptz') {
          return temporalListText(name, element);
        }
        // to_json prints a numeric element as a JSON number, which staging would read through a
        // double: every numeric element (a decimal, or exact text beyond 38 digits) goes as its text.
        if (element.kind === 'decimal' || column.elementType === 'numeric') return `to_json(${name}::text[])`;
        return `to_json(${name})`;
      }
      case 'json':
        return column.sourceType.endsWith('[]') ? `to_json(${name})` : null;
      default:
        return null;
    }
  })();
  return expression === null ? name : `${expression} AS ${name}`;
}

/** A saved cursor at an end of its type (±infinity, NaN above every number): reads after it stall or repeat. */
const ENDLESS_CURSOR = /^(-?infinity|nan)$/i;

function endlessCursorWarning(column: string, cursor: string): string {
  if (cursor.startsWith('-')) {
    return `Column ${column}: the saved cursor is ${cursor}, so the next sync reads every row again.`;
  }
  return (
    `Column ${column}: the saved cursor is ${cursor}, so later syncs read only the rows whose ${column} is ` +
    `${cursor}: rows added or changed with any other ${column} are not read. Choose another cursor, or ` +
    'refresh all data to read every row.'
  );
}

/** Any lower bound of an array other than 1 (`[0:1]`, `[1:2][-1:0]`), from its array_dims text. */
const SHIFTED_DIMS = '^(\\[1:[0-9]+\\])*$';

/**
 * Counts, per array column, the values whose indexes do not start at 1 ('[0:1]={1,2}'): a list
 * keeps the elements in order but not their indexes, which the run log says. One more read of the
 * rows, in the same snapshot, only when arrays are selected.
 */
async function warnShiftedArrays(
  client: pg.Client,
  from: string,
  columns: SourceColumn[],
  cursor: { column: SourceColumn; saved: string } | null,
  log: ConnectorContext['log'],
): Promise<void> {
  const arrays = columns.filter((c) => c.elementType !== null);
  if (arrays.length === 0) return;
  const counts = arrays.map(
    (c, i) => `count(*) FILTER (WHERE array_dims(${ident(c.name)}) !~ $1)::text AS ${ident(`a${i}`)}`,
  );
  const where = cursor ? ` WHERE ${fromCursor(cursor.column, `CAST($2 AS ${cursor.column.sourceType})`)}` : '';
  // Only a warning: a type array_dims refuses must not stop the read (nor abort its transaction).
  await client.query('SAVEPOINT shifted_arrays');
  let rows: Record<string, string>[];
  try {
    ({ rows } = await client.query<Record<string, string>>(
      `SELECT ${counts.join(', ')} FROM ${from}${where}`,
      cursor ? [SHIFTED_DIMS, cursor.saved] : [SHIFTED_DIMS],
    ));
    await client.query('RELEASE SAVEPOINT shifted_arrays');
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT shifted_arrays');
    return;
  }
  arrays.forEach((column, i) => {
    const count = Number(rows[0]?.[`a${i}`] ?? 0);
    if (count === 0) return;
    log(
      'WARN',
      `Column ${column.name}: ${count === 1 ? '1 array does' : `${count} arrays do`} not start at index 1 ` +
        `(e.g. '[0:1]={1,2}'); the elements are stored in their order, without their indexes.`,
    );
  });
}

/**
 * The rows an incremental read takes: those at or after the saved cursor (`saved`, SQL of the column's
 * type), and those without a cursor value, which no bound reaches: they are read by every sync (the
 * primary key, or the append's copy check in swap-in.ts, keeps each once), never silently left behind.
 */
function fromCursor(cursor: SourceColumn, saved: string): string {
  const name = ident(cursor.name);
  return `(${name} >= ${saved} OR ${name} IS NULL)`;
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
    let readFrom: { column: SourceColumn; saved: string } | null = null;

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
      // Inclusive: a row written later with the saved cursor's value is read too. The rows at the
      // boundary arrive again; the primary key (AppendDedup) or the append's boundary check
      // (swap-in.ts) keeps them from being stored twice.
      if (typeof saved === 'string' || typeof saved === 'number') {
        where = ` WHERE ${fromCursor(cursor, `CAST(${literal(String(saved))} AS ${cursor.sourceType})`)}`;
        readFrom = { column: cursor, saved: String(saved) };
        ctx.log('INFO', `Reading ${table.datasetName} where ${cursor.name} >= ${saved} or ${cursor.name} is empty`);
      }
      orderBy = ` ORDER BY ${cursorSql}`;
      const bounds = await client.query<{ max: string | null; empty: string }>(
        `SELECT max(${cursorSql})::text AS max, count(*) FILTER (WHERE ${cursorSql} IS NULL)::text AS empty FROM ${from}${where}`,
      );
      const newMax = bounds.rows[0]?.max ?? null;
      const empty = Number(bounds.rows[0]?.empty ?? 0);
      if (empty > 0) {
        ctx.log(
          'INFO',
          `${empty === 1 ? '1 row has' : `${empty} rows have`} no ${cursor.name}: read by every incremental sync, stored once.`,
        );
      }
      // Saved as it is (the rows holding it are read again next time), but never silently.
      const kept = newMax ?? (saved === undefined ? null : String(saved));
      if (kept !== null && ENDLESS_CURSOR.test(kept)) ctx.log('WARN', endlessCursorWarning(cursor.name, kept));
      // No row at or after the saved cursor: the cursor stays (and rows without one are still read).
      if (kept !== null) nextState = newMax === null ? request.state : { cursor: newMax };
      if (newMax === null && empty === 0) ctx.log('INFO', `No new rows in ${table.datasetName}`);
    }

    await warnShiftedArrays(client, from, columns, readFrom, ctx.log);

    const sql = `SELECT ${columns.map(selectExpression).join(', ')} FROM ${from}${where}${orderBy}`;
    // The files' columns in order: staging reads them by position, in COPY's own CSV dialect.
    const names = columns.map((c) => c.name);
    let rows = 0;
    const copy = copyToCsvFiles(client, sql, {
      dir: ctx.tempDir,
      baseName: `pg-${table.datasetName.replace(/[^A-Za-z0-9_-]/g, '_')}`,
      rowsPerFile: config.rowsPerFile,
      signal: ctx.signal,
    });
    for await (const file of copy.files) {
      rows += file.rows;
      yield { kind: 'file', path: file.path, format: 'csv', rows: file.rows, canonical: true, columns: names };
    }
    await client.query('COMMIT');
    // COPY's own count (known by now) against the rows split into files, each of which staging
    // checked against the rows it read: a row lost on the way fails the sync.
    if (copy.reportedRows() !== rows) {
      throw new ConnectorError(
        `COPY reported ${copy.reportedRows()} rows of ${table.datasetName}, but ${rows} were written into files.`,
        'SystemError',
      );
    }
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

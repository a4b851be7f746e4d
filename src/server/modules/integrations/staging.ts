/**
 * Loading a dataset's rows into the warehouse. Every sync writes a staging table first (record
 * batches through JSON files, files read by DuckDB) with each column in its exact storage format
 * (connectors/formats.ts), and swaps it in (swap-in.ts) only when the read succeeded, so a failed
 * sync leaves the dataset's previous rows as they were.
 *
 * A value its column's format cannot hold is never changed silently. Numbers widen: a whole
 * number or a decimal too large for its column makes the column an exact decimal, and a value no
 * decimal of 38 digits holds makes it exact text. Other values make the column exact text when its
 * types were inferred from samples (`onMisfit: 'text'`), and stop the sync when the source declared
 * them (`'refuse'`). Either way the run log names the dataset, the column and the count.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { doubleTextSql } from '../../warehouse/export-cells';
import { quoteString } from '../../warehouse/quote';
import type { WarehouseExecutor, WarehouseSession } from '../../warehouse/types';
import type { Column } from '../../../shared/tables';
import { ConnectorError, type LogLevel } from './connectors/types';
import { parseJsonExact } from '../../exact-values/json';
import {
  duckDbType,
  EXACT_DECIMAL,
  formatOfDuckDbType,
  formatText,
  MAX_DECIMAL_DIGITS,
  TEXT,
  type StorageFormat,
} from './connectors/formats';
import { holds } from './stored-types';
import { ROW_ID, STAGING_PREFIX, q, quoteQualified } from './physical';
import { converterFor, MISFIT, type StagedValue } from './record-values';
import {
  batchType,
  decimalFromText,
  fromBatch,
  fromText,
  fromTyped,
  type SniffedFormats,
  type TextCast,
} from './stage-sql';

export interface StagedColumn {
  name: string;
  format: StorageFormat;
  /** A value the format cannot hold (and no wider number can): the column becomes text, or the sync stops. */
  onMisfit: 'text' | 'refuse';
}

/** A column whose values did not all fit its format, and what it became. */
export interface ColumnNotice {
  column: string;
  /** Values that did not fit. */
  count: number;
  /** The format discovered, and the one the column took. */
  from: string;
  to: string;
  /** Why, in words (e.g. 'need more than 38 digits'). */
  reason: string;
}

export interface Staging {
  schema: string;
  name: string;
  columns: StagedColumn[];
  /** Rows written so far. */
  rows: number;
  bytes: number;
  notices: Map<string, ColumnNotice>;
  /** The run's log for this dataset (its lines are prefixed with the dataset's name). */
  log(level: LogLevel, message: string): void;
}

export async function ensureSchema(executor: WarehouseExecutor, schema: string): Promise<void> {
  await executor.exclusive(`schema:${schema}`, () => executor.run(`CREATE SCHEMA IF NOT EXISTS ${q(schema)}`));
}

export async function tableExists(session: WarehouseSession, schema: string, table: string): Promise<boolean> {
  const rows = await session.all({
    sql: 'SELECT 1 AS found FROM duckdb_tables() WHERE schema_name = $1 AND table_name = $2',
    parameters: [schema, table],
  });
  return rows.length > 0;
}

/** An empty staging table with the stored type of every column, plus `_row_id`. */
export async function createStaging(
  executor: WarehouseExecutor,
  schema: string,
  table: string,
  columns: StagedColumn[],
  log: (level: LogLevel, message: string) => void = () => undefined,
): Promise<Staging> {
  const name = `${STAGING_PREFIX}${table}_${randomBytes(4).toString('hex')}`;
  const defs = [`${q(ROW_ID)} BIGINT`, ...columns.map((c) => `${q(c.name)} ${duckDbType(c.format)}`)];
  await executor.exclusive(`table:${schema}.${name}`, () =>
    executor.run(`CREATE TABLE ${quoteQualified(schema, name)} (${defs.join(', ')})`),
  );
  // Copies: widening a column changes its format for the rest of this sync only.
  return {
    schema,
    name,
    columns: columns.map((c) => ({ ...c })),
    rows: 0,
    bytes: 0,
    notices: new Map(),
    log,
  };
}

export async function dropStaging(executor: WarehouseExecutor, staging: Staging): Promise<void> {
  await executor.exclusive(`table:${staging.schema}.${staging.name}`, () =>
    executor.run(`DROP TABLE IF EXISTS ${quoteQualified(staging.schema, staging.name)}`),
  );
}

const onStaging = <T>(executor: WarehouseExecutor, staging: Staging, work: () => Promise<T>) =>
  executor.exclusive(`table:${staging.schema}.${staging.name}`, work);

/** The format a column widens to when a value does not fit: numbers to exact decimals, then text. */
function widerFormat(format: StorageFormat): StorageFormat {
  const numeric =
    format.kind === 'int' || format.kind === 'decimal' || format.kind === 'double' || format.kind === 'float';
  return numeric ? EXACT_DECIMAL : TEXT;
}

/** Text of the values already staged in a column (lists and JSON as JSON, doubles as the grid shows them). */
function asText(format: StorageFormat, ref: string): string {
  if (format.kind === 'list' || format.kind === 'json') return `CAST(to_json(${ref}) AS VARCHAR)`;
  return format.kind === 'double' ? doubleTextSql(ref) : `CAST(${ref} AS VARCHAR)`;
}

function note(staging: Staging, column: string, count: number, from: string, to: string, reason: string): void {
  const seen = staging.notices.get(column);
  staging.notices.set(column, {
    column,
    count: (seen?.count ?? 0) + count,
    from: seen?.from ?? from,
    to,
    reason: seen && seen.to === to ? seen.reason : reason,
  });
}

/**
 * Misfits of one column: widens it (the staged values become text) or refuses the sync. `detail`
 * is DuckDB's own words about a refused value, when it gave them.
 */
async function widen(
  executor: WarehouseExecutor,
  staging: Staging,
  column: StagedColumn,
  count: number,
  detail?: string,
) {
  const next = widerFormat(column.format);
  const values = count === 1 ? '1 value does' : `${count} values do`;
  if (next.kind === 'text' && column.onMisfit === 'refuse') {
    const what = `column ${column.name} (${formatText(column.format)}): ${values} not fit`;
    staging.log(
      'WARN',
      `${what[0]?.toUpperCase()}${what.slice(1)}; the sync stops and the dataset keeps its previous data.`,
    );
    throw new ConnectorError(
      `A record does not fit the dataset's columns: ${what}${detail ? ` (${detail})` : ''}. ` +
        'If the source changed its types, refresh the datasets.',
      'SystemError',
    );
  }
  const from = formatText(column.format);
  if (column.format.kind !== 'exact-decimal') {
    const target = quoteQualified(staging.schema, staging.name);
    await onStaging(executor, staging, () =>
      executor.run(
        `ALTER TABLE ${target} ALTER COLUMN ${q(column.name)} TYPE VARCHAR USING ${asText(column.format, q(column.name))}`,
      ),
    );
  }
  note(staging, column.name, count, from, formatText(next), `${values} not fit ${from}`);
  column.format = next;
}

/**
 * DuckDB names a record that does not fit its column by the scratch file and a position within its
 * read buffer, which means nothing to the user; the problem itself (the value, the type) does.
 */
function unfitDetail(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  const match = /JSON transform error in file "[^"]*", in record\/value \d+: ([^\n]*)/.exec(message);
  const conversion = /^(?:Conversion Error|Invalid Input Error): ([^\n]*)/.exec(message);
  return match?.[1] ?? conversion?.[1] ?? null;
}

/**
 * Runs the load `insert` (an INSERT ... SELECT built from the columns' current formats). When DuckDB
 * refuses a value, `misfits` counts per column what does not fit; those columns widen and the load
 * runs again. Only a refusal no column explains is an error.
 */
async function loadWithWidening(
  executor: WarehouseExecutor,
  staging: Staging,
  insert: () => string,
  misfits: () => string,
  file: string,
): Promise<number> {
  for (;;) {
    try {
      return await onStaging(executor, staging, () => executor.run(insert(), [file]));
    } catch (error) {
      const detail = unfitDetail(error);
      if (detail === null) throw error;
      const [counts] = await executor.all({ sql: misfits(), parameters: [file] }).catch(() => [undefined]);
      const found = staging.columns.flatMap((column, i) => {
        const count = Number(counts?.[`m${i}`] ?? 0);
        return count > 0 ? [{ column, count }] : [];
      });
      if (found.length === 0) {
        throw new ConnectorError(
          `A record does not fit the dataset's columns: ${detail}. If the source changed its types, refresh the datasets.`,
          'SystemError',
        );
      }
      for (const { column, count } of found) await widen(executor, staging, column, count, detail);
    }
  }
}

const misfitCounts = (casts: TextCast[]) =>
  casts.map((cast, i) => `count(*) FILTER (WHERE NOT ${cast.fits})::DOUBLE AS m${i}`).join(', ') || '0 AS m0';

/** `{'name': 'TYPE', ...}` for read_json: property names are source data, quoted as SQL strings. */
function jsonColumnsArgument(columns: StagedColumn[], typeOf: (column: StagedColumn) => string): string {
  return `{${columns.map((c) => `${quoteString(c.name)}: ${quoteString(typeOf(c))}`).join(', ')}}`;
}

/** The batch as read_json reads it; columns with values that do not fit are widened first. */
async function batchOf(
  executor: WarehouseExecutor,
  staging: Staging,
  records: Record<string, unknown>[],
): Promise<Record<string, StagedValue>[]> {
  for (;;) {
    const { columns } = staging;
    const converters = columns.map((c) => converterFor(c.format));
    const misfits = new Array<number>(columns.length).fill(0);
    const kept: Record<string, StagedValue>[] = new Array(records.length);
    for (let r = 0; r < records.length; r++) {
      const record = records[r] as Record<string, unknown>;
      // Plain objects (JSON.stringify's fast path); a property named __proto__ is set as data.
      const values: Record<string, StagedValue> = {};
      for (let i = 0; i < columns.length; i++) {
        const name = (columns[i] as StagedColumn).name;
        const value = record[name];
        // Absent, or inherited (a column named constructor): no value.
        if (value === undefined || typeof value === 'function') continue;
        const staged = (converters[i] as (v: unknown) => StagedValue | typeof MISFIT)(value);
        if (staged === MISFIT) misfits[i] = (misfits[i] as number) + 1;
        else if (name === '__proto__') Object.defineProperty(values, name, { value: staged, enumerable: true });
        else values[name] = staged;
      }
      kept[r] = values;
    }
    if (misfits.every((n) => n === 0)) return kept;
    for (const [i, count] of misfits.entries()) {
      if (count > 0) await widen(executor, staging, columns[i] as StagedColumn, count);
    }
  }
}

/** Appends records (only the staged columns are kept) through a JSON array file in `tempDir`. */
export async function stageRecords(
  executor: WarehouseExecutor,
  staging: Staging,
  records: Record<string, unknown>[],
  tempDir: string,
): Promise<number> {
  if (records.length === 0 || staging.columns.length === 0) return 0;
  const file = path.join(tempDir, `batch-${randomBytes(6).toString('hex')}.json`);
  const target = quoteQualified(staging.schema, staging.name);
  try {
    const kept = await batchOf(executor, staging, records);
    // One stringify of the whole batch: a call per record (and joining the lines) costs twice as much.
    await fs.promises.writeFile(file, JSON.stringify(kept));
    // A column DuckDB refuses a value of becomes text: the file's value for it is read as it is.
    const changed = await loadWithWidening(
      executor,
      staging,
      () => {
        const names = staging.columns.map((c) => q(c.name)).join(', ');
        const select = staging.columns.map((c) => `${fromBatch(c.format, q(c.name))} AS ${q(c.name)}`);
        const types = jsonColumnsArgument(staging.columns, (c) => batchType(c.format));
        return `INSERT INTO ${target} (${names}) SELECT ${select.join(', ')} FROM read_json($1, format = 'array', columns = ${types})`;
      },
      () => {
        const source = `read_json($1, format = 'array', columns = ${jsonColumnsArgument(staging.columns, () => 'VARCHAR')})`;
        return `SELECT ${misfitCounts(staging.columns.map((c) => fromText(c.format, q(c.name), true)))} FROM ${source}`;
      },
      file,
    );
    staging.rows += changed;
    staging.bytes += (await fs.promises.stat(file)).size;
    return changed;
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}

/** Records of a JSON lines file, every number exact, in batches. */
async function* jsonLines(file: string, size: number): AsyncGenerator<Record<string, unknown>[]> {
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let batch: Record<string, unknown>[] = [];
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const value = parseJsonExact(line);
    batch.push(
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { value },
    );
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

export interface StagedFile {
  path: string;
  format: 'csv' | 'jsonl' | 'parquet';
  /** CSV whose every value is its type's canonical text (a database's own output): cast without guards. */
  canonical?: boolean;
}

/** Appends a file a connector handed over, cast by column name to the staged formats (missing ones stay NULL). */
export async function stageFile(executor: WarehouseExecutor, staging: Staging, file: StagedFile): Promise<number> {
  if (file.format === 'jsonl') {
    let changed = 0;
    const dir = path.dirname(file.path);
    for await (const records of jsonLines(file.path, 20_000))
      changed += await stageRecords(executor, staging, records, dir);
    return changed;
  }
  const source =
    file.format === 'csv'
      ? `read_csv($1, header = true, all_varchar = true, allow_quoted_nulls = false)`
      : `read_parquet($1)`;
  const described = await executor.query({ sql: `SELECT * FROM ${source} LIMIT 0`, parameters: [file.path] });
  const present = new Map(described.columns.map((c) => [c.name, c.sqlType]));
  let sniffed: SniffedFormats | undefined;
  if (file.format === 'csv' && !file.canonical) {
    const [formats] = await executor.all({
      sql: 'SELECT DateFormat AS date, TimestampFormat AS timestamp FROM sniff_csv($1)',
      parameters: [file.path],
    });
    sniffed = {
      date: (formats?.date as string | null) ?? null,
      timestamp: (formats?.timestamp as string | null) ?? null,
    };
  }
  // A typed file whose column the staged format cannot hold exactly (a later Parquet file with
  // DOUBLE where the first had BIGINT) widens the column first: DuckDB's cast would round.
  if (file.format === 'parquet') {
    for (const column of staging.columns) {
      const sourceType = present.get(column.name);
      if (sourceType === undefined || holds(column.format, formatOfDuckDbType(sourceType))) continue;
      const [counted] = await executor.all({
        sql: `SELECT count(${q(column.name)})::DOUBLE AS n FROM ${source}`,
        parameters: [file.path],
      });
      const count = Number(counted?.n ?? 0);
      if (count > 0) await widen(executor, staging, column, count, `the file has ${sourceType}`);
    }
  }
  const castOf = (column: StagedColumn) =>
    file.format === 'csv'
      ? fromText(column.format, q(column.name), file.canonical === true, sniffed)
      : fromTyped(column.format, q(column.name), present.get(column.name) ?? '');
  const loaded = () => staging.columns.filter((c) => present.has(c.name));
  if (loaded().length === 0) return 0;
  const target = quoteQualified(staging.schema, staging.name);
  const changed = await loadWithWidening(
    executor,
    staging,
    () => {
      const columns = loaded();
      const select = columns.map((c) => `${castOf(c).value} AS ${q(c.name)}`);
      return `INSERT INTO ${target} (${columns.map((c) => q(c.name)).join(', ')}) SELECT ${select.join(', ')} FROM ${source}`;
    },
    () =>
      `SELECT ${misfitCounts(staging.columns.map((c) => (present.has(c.name) ? castOf(c) : { value: '', fits: 'true' })))} FROM ${source}`,
    file.path,
  );
  staging.rows += changed;
  staging.bytes += (await fs.promises.stat(file.path)).size;
  return changed;
}

const PLAIN_DECIMAL = `'-?[0-9]+(\\.[0-9]+)?'`;

/**
 * Types the exact-decimal columns once every row is staged: DECIMAL(38, s) with s the largest scale
 * read, when every value is a decimal number and 38 digits hold them all; else the column stays
 * exact text, and the notice says why.
 */
export async function finishStaging(executor: WarehouseExecutor, staging: Staging): Promise<void> {
  const target = quoteQualified(staging.schema, staging.name);
  for (const column of staging.columns) {
    if (column.format.kind !== 'exact-decimal') continue;
    const c = q(column.name);
    // The scale that carries value: trailing zeros of a fraction (PostgreSQL's 79.1900000000000000)
    // say nothing, and a narrower decimal is parsed and computed much faster. Digits before the
    // point count a leading 0 ("0.5"): a digit of room to spare, never one too few.
    const scaleOf = `CASE WHEN strpos(${c}, '.') > 0 THEN length(rtrim(${c}, '0')) - strpos(${c}, '.') ELSE 0 END`;
    const intDigitsOf =
      `CASE WHEN strpos(${c}, '.') > 0 THEN strpos(${c}, '.') - 1 ELSE length(${c}) END - ` +
      `CASE WHEN starts_with(${c}, '-') THEN 1 ELSE 0 END`;
    // One pass, the pattern matched once a value.
    const [stats] = await executor.all({
      sql:
        `SELECT count(*) FILTER (WHERE v IS NOT NULL AND NOT ok)::DOUBLE AS bad, ` +
        `count(*) FILTER (WHERE ok AND d + s > ${MAX_DECIMAL_DIGITS})::DOUBLE AS over, ` +
        `coalesce(max(s) FILTER (WHERE ok), 0)::DOUBLE AS scale, ` +
        `coalesce(max(d) FILTER (WHERE ok), 0)::DOUBLE AS int_digits ` +
        `FROM (SELECT ${c} AS v, regexp_full_match(${c}, ${PLAIN_DECIMAL}) AS ok, ${scaleOf} AS s, ${intDigitsOf} AS d ` +
        `FROM ${target})`,
      parameters: [],
    });
    const bad = Number(stats?.bad ?? 0);
    const over = Number(stats?.over ?? 0);
    const scale = Number(stats?.scale ?? 0);
    const intDigits = Number(stats?.int_digits ?? 0);
    const from = staging.notices.get(column.name)?.from ?? 'decimal';
    if (bad > 0) {
      const values = bad === 1 ? '1 value is' : `${bad} values are`;
      note(staging, column.name, bad, from, 'text', `${values} not a decimal number (e.g. NaN or Infinity)`);
      column.format = TEXT;
      continue;
    }
    if (intDigits + scale > MAX_DECIMAL_DIGITS) {
      const why =
        over > 0
          ? `${over === 1 ? '1 value has' : `${over} values have`} more than ${MAX_DECIMAL_DIGITS} digits`
          : `its values need ${intDigits} digits before the point and ${scale} after, more than the ${MAX_DECIMAL_DIGITS} a decimal holds`;
      note(staging, column.name, over, from, 'text', why);
      column.format = TEXT;
      continue;
    }
    // 18 digits fit 64 bits (fast to parse and to compute with); wider data takes 38.
    const precision = intDigits + scale <= 18 ? 18 : MAX_DECIMAL_DIGITS;
    const type = `DECIMAL(${precision},${scale})`;
    await onStaging(executor, staging, () =>
      executor.run(
        `ALTER TABLE ${target} ALTER COLUMN ${c} TYPE ${type} USING ${decimalFromText(c, precision, scale)}`,
      ),
    );
    column.format = { kind: 'decimal', precision, scale };
  }
}

/** The columns that did not keep their discovered format, in column order, as run log lines. */
export function noticeLines(staging: Staging): string[] {
  return staging.columns.flatMap((column) => {
    const notice = staging.notices.get(column.name);
    if (!notice) return [];
    const stored = notice.to === 'text' ? 'exact text' : 'an exact decimal';
    return [`Column ${notice.column}: ${notice.reason}; it is stored as ${stored} (discovered as ${notice.from}).`];
  });
}

/** The table's columns (without `_row_id`) as the tables API shows them, and its row count. */
export async function describeTable(
  session: WarehouseSession,
  schema: string,
  table: string,
): Promise<{ columns: Column[]; rowCount: number }> {
  const target = quoteQualified(schema, table);
  const result = await session.query({ sql: `SELECT * FROM ${target} LIMIT 0`, parameters: [] });
  const [count] = await session.all({ sql: `SELECT count(*)::DOUBLE AS n FROM ${target}`, parameters: [] });
  const columns = result.columns
    .filter((c) => c.name !== ROW_ID)
    .map((c, order) => ({ columnKey: c.name, displayName: c.name, description: null, order, type: c.type }));
  return { columns, rowCount: Number(count?.n ?? 0) };
}

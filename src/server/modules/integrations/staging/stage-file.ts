/** A file a connector handed over (CSV, JSON lines, Parquet) into the staging table. */
import fs from 'node:fs';
import path from 'node:path';
import { csvFileError } from '../../../warehouse/csv-errors';
import { csvDialectOptions, inspectCsvFile } from '../../../warehouse/csv-file';
import { uniformLineEndsInPlace } from '../../../warehouse/csv-line-ends';
import type { WarehouseExecutor } from '../../../warehouse/types';
import { EXACT_DECIMAL, formatOfDuckDbType } from '../connectors/formats';
import { exactParquet } from '../connectors/parquet/exact-parquet';
import { ConnectorError } from '../connectors/types';
import type { UnknownFields } from '../connectors/unknown-fields';
import { q, quoteQualified } from '../physical';
import { holds } from '../stored-types';
import { jsonLines } from '../../../exact-values/json-lines';
import { fromText, fromTyped, type SniffedFormats } from './stage-sql';
import { stageRecords } from './stage-records';
import type { StagedColumn, Staging } from './types';
import { loadWithWidening, misfitCounts, widen } from './widening';

export interface StagedFile {
  path: string;
  format: 'csv' | 'jsonl' | 'parquet';
  /** CSV whose every value is its type's canonical text (a database's own output): cast without guards. */
  canonical?: boolean;
  /**
   * A CSV file written by PostgreSQL's `COPY ... (FORMAT csv, HEADER true)`: its columns in order.
   * It is read in exactly that dialect, each column by its position, nothing guessed (copyCsvSource).
   */
  columns?: readonly string[];
  /** Rows the source wrote into the file: a load that reads another count fails the sync. */
  rows?: number;
}

/**
 * The longest line (one row) read from a copied file: 64 MiB, the bound a source's record line has
 * elsewhere too (an Airbyte source's `maxLineBytes`). DuckDB's default (2 MB) failed a sync on one
 * long text. DuckDB holds a read buffer of at least this size in the warehouse's memory (1GB by
 * default), which is what bounds it; a longer row stops the sync with a message saying so.
 */
export const MAX_COPY_LINE_BYTES = 64 * 1024 * 1024;

/**
 * read_csv of a file in COPY's CSV dialect: ',' between values, '"' around them and doubling a
 * '"' within, '\n' after each row, an unquoted empty value for NULL, a header line. Nothing is
 * sniffed, so no value (a ';' in a one-column table, a value in single quotes) can change how the
 * file is read; a row that does not match (strict mode) fails the load. Columns are named by
 * position (`c0`, `c1`, ...), so no source name reaches the SQL.
 */
function copyCsvSource(count: number): string {
  const columns = Array.from({ length: count }, (_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  return (
    `read_csv($1, auto_detect = false, header = true, columns = {${columns}}, delim = ',', quote = '"', ` +
    `escape = '"', new_line = '\\n', comment = '', skip = 0, strict_mode = true, null_padding = false, ` +
    `allow_quoted_nulls = false, max_line_size = ${MAX_COPY_LINE_BYTES}, buffer_size = ${MAX_COPY_LINE_BYTES})`
  );
}

/**
 * DuckDB names a CSV line it cannot read with the whole line (up to 10,000 characters of a value)
 * and hints about its options: the run log gets the line's number and the reason only.
 */
function unreadableCsv(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const line = /CSV Error on Line: (\d+)/.exec(message);
  if (!line) return error;
  const tooLong = /Maximum line size of (\d+) bytes exceeded\. Actual Size: ?(\d+) bytes/.exec(message);
  const columns = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(message);
  const reason = tooLong
    ? `it is ${tooLong[2]} bytes long, and a line is read up to ${tooLong[1]} bytes`
    : columns
      ? `it has ${columns[2]} values where the file has ${columns[1]} columns`
      : 'it is not CSV as the file was written';
  return new ConnectorError(`A file could not be read at its line ${line[1]}: ${reason}.`, 'SystemError');
}

/**
 * A file a user made (SFTP, e-mail) that DuckDB cannot read as CSV: the reason in the words a
 * static table's import uses (not UTF-8, a row of another width, a quote never closed, ...).
 */
function unreadableUserCsv(error: unknown): unknown {
  const readable = csvFileError(error);
  return readable ? new ConnectorError(`A file could not be read: ${readable.message}`, 'ConfigError') : error;
}

/** A column of a file: the name DuckDB reads it under, and its type. */
interface FileColumn {
  name: string;
  sqlType: string;
}

/**
 * The file's columns by the names its header gives them. DuckDB renames a CSV header that repeats an
 * earlier one without regard to case ("a" after "A" reads as "a_1"), while a source such as
 * PostgreSQL has both names: when a staged property is missing, the header row is read as data,
 * which names each column in order as the file does.
 */
async function fileColumns(
  executor: WarehouseExecutor,
  file: StagedFile,
  source: string,
  staged: readonly StagedColumn[],
  dialect: string | null,
): Promise<Map<string, FileColumn>> {
  const described = await executor.query({ sql: `SELECT * FROM ${source} LIMIT 0`, parameters: [file.path] });
  const byName = new Map(described.columns.map((c) => [c.name, { name: c.name, sqlType: c.sqlType }]));
  if (file.format !== 'csv' || staged.every((c) => byName.has(c.field))) return byName;
  const [header] = await executor.all({
    sql: `SELECT * FROM read_csv($1, header = false, all_varchar = true${dialect ? `, ${dialect}` : ''}) LIMIT 1`,
    parameters: [file.path],
  });
  const names = header ? Object.values(header) : [];
  if (names.length !== described.columns.length) return byName;
  // The header's own names first; DuckDB's fill in the rest (a blank header reads as column<n>).
  const byHeader = new Map(described.columns.map((c, i) => [String(names[i]), { name: c.name, sqlType: c.sqlType }]));
  for (const [name, column] of byName) if (!byHeader.has(name)) byHeader.set(name, column);
  return byHeader;
}

/**
 * Tallies the file's columns that no discovered property names. A CSV column is present under its
 * header's name and DuckDB's (fileColumns): one named by a property is not counted under the other.
 */
function tallyUnseen(unseen: UnknownFields, present: Map<string, FileColumn>, rows: number): void {
  const named = new Set([...present].filter(([field]) => unseen.knows(field)).map(([, column]) => column.name));
  for (const [field, column] of present) {
    if (named.has(column.name)) continue;
    named.add(column.name);
    unseen.add(field, rows);
  }
}

async function rowsOf(executor: WarehouseExecutor, source: string, file: StagedFile): Promise<number> {
  const [counted] = await executor.all({ sql: `SELECT count(*)::DOUBLE AS n FROM ${source}`, parameters: [file.path] });
  return Number(counted?.n ?? 0);
}

/**
 * Appends a file a connector handed over, each staged column read from the file's column of its
 * property's name and cast to its staged format (missing ones stay NULL).
 */
export async function stageFile(executor: WarehouseExecutor, staging: Staging, file: StagedFile): Promise<number> {
  if (file.format === 'jsonl') {
    let changed = 0;
    const dir = path.dirname(file.path);
    for await (const records of jsonLines(file.path, 20_000)) {
      if (staging.unseen) for (const record of records) staging.unseen.count(record);
      changed += await stageRecords(executor, staging, records, dir);
    }
    return changed;
  }
  // Columns DuckDB would round are made exact first, as discovery read them (wide decimals as exact text).
  const exactDecimals = new Set(file.format === 'parquet' ? await exactParquet(file.path) : []);
  // A file a user made (SFTP, e-mail): its row ends made uniform and its dialect found from its
  // header, as discovery read it.
  if (file.format === 'csv' && !file.columns) await uniformLineEndsInPlace(file.path);
  const dialect =
    file.format === 'csv' && !file.columns
      ? csvDialectOptions(await inspectCsvFile(file.path, Number.MAX_SAFE_INTEGER))
      : null;
  const source =
    file.format !== 'csv'
      ? `read_parquet($1)`
      : file.columns
        ? copyCsvSource(file.columns.length)
        : `read_csv($1, header = true, all_varchar = true, allow_quoted_nulls = false, ${dialect})`;
  const present = file.columns
    ? new Map(file.columns.map((field, i) => [field, { name: `c${i}`, sqlType: 'VARCHAR' }]))
    : await fileColumns(executor, file, source, staging.columns, dialect);
  let sniffed: SniffedFormats | undefined;
  if (file.format === 'csv' && !file.canonical) {
    const [formats] = await executor.all({
      sql: `SELECT DateFormat AS date, TimestampFormat AS timestamp FROM sniff_csv($1${dialect ? `, ${dialect}` : ''})`,
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
      const read = present.get(column.field);
      if (read === undefined) continue;
      const readFormat = exactDecimals.has(read.name) ? EXACT_DECIMAL : formatOfDuckDbType(read.sqlType);
      if (holds(column.format, readFormat)) continue;
      const sourceType = read.sqlType;
      const [counted] = await executor.all({
        sql: `SELECT count(${q(read.name)})::DOUBLE AS n FROM ${source}`,
        parameters: [file.path],
      });
      const count = Number(counted?.n ?? 0);
      if (count > 0) await widen(executor, staging, column, count, `the file has ${sourceType}`);
    }
  }
  const castOf = (column: StagedColumn) => {
    const read = present.get(column.field);
    const value = q(read?.name ?? column.field);
    return file.format === 'csv'
      ? fromText(column.format, value, file.canonical === true, sniffed)
      : fromTyped(column.format, value, read?.sqlType ?? '');
  };
  const loaded = () => staging.columns.filter((c) => present.has(c.field));
  if (loaded().length === 0) {
    if (staging.unseen && !file.columns) tallyUnseen(staging.unseen, present, await rowsOf(executor, source, file));
    return 0;
  }
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
      `SELECT ${misfitCounts(staging.columns.map((c) => (present.has(c.field) ? castOf(c) : { value: '', fits: 'true' })))} FROM ${source}`,
    file.path,
  ).catch((error: unknown) => {
    if (file.format !== 'csv') throw error;
    throw file.columns ? unreadableCsv(error) : unreadableUserCsv(error);
  });
  if (staging.unseen && !file.columns) tallyUnseen(staging.unseen, present, changed);
  if (file.rows !== undefined && changed !== file.rows) {
    throw new ConnectorError(
      `The source wrote ${file.rows} rows into a copied file, but ${changed} were read from it.`,
      'SystemError',
    );
  }
  staging.rows += changed;
  staging.bytes += (await fs.promises.stat(file.path)).size;
  return changed;
}

import { randomBytes } from 'node:crypto';
import type { ColumnType } from '../../shared/tables';
import { badInput } from '../errors';
import { csvFileError, isDialectError, isLateTypeError } from './csv-errors';
import { inspectCsvFile, type CsvFileFacts } from './csv-file';
import { quoteIdentifier, quoteQualified, quoteString } from './quote';
import type { WarehouseExecutor, WarehouseSession } from './types';
import { crashPoint } from '../durability/crash-points';

export interface CsvImportOptions {
  /** A file the server wrote (an upload); read by DuckDB directly. */
  filePath: string;
  schema: string;
  table: string;
  maxBytes: number;
  /** Adds a column numbering the rows in file order (e.g. a static table's `_row_id`). */
  rowIdColumn?: string;
  /** Names to store the columns under, given the header's names (e.g. generated column keys). */
  storedNames?: (headerNames: string[]) => string[];
  /** More columns than this are refused before anything is written. */
  maxColumns: number;
  /** Runs inside the transaction that replaces the table, just before it commits (e.g. a write marker). */
  beforeCommit?: (tx: WarehouseSession, result: CsvImportResult) => Promise<void>;
}

export interface CsvImportResult {
  /** In file order, named as in the header (DuckDB names blank ones `column<n>` and renames repeats `a_1`). */
  columns: { name: string; type: ColumnType; sqlType: string }[];
  rowCount: number;
}

/**
 * Replaces `schema.table` with the rows of a CSV file (header line first, types detected by DuckDB).
 * The file is read into a temporary table first and swapped in by one transaction, so a bad file or
 * a crash leaves the old table as it was. Bad files raise BadInput naming the problem and, when
 * DuckDB knows it, the line. The caller holds `exclusive('table:<schema>.<table>')`.
 */
export async function importCsvToTable(
  executor: WarehouseExecutor,
  options: CsvImportOptions,
): Promise<CsvImportResult> {
  const facts = await inspectCsvFile(options.filePath, options.maxBytes);
  refuseWide(facts.headerFields, options.maxColumns);
  const { schema } = options;
  try {
    await executor.exclusive(`schema:${schema}`, () =>
      executor.run(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`),
    );
    try {
      return await replaceFromCsv(executor, options, facts, false);
    } catch (error) {
      if (!isLateTypeError(error)) throw error;
      // Types were guessed from a sample; read every row to choose them, at the cost of a second pass.
      return await replaceFromCsv(executor, options, facts, true);
    }
  } catch (error) {
    if (isDialectError(error)) await findStructuralError(executor, options.filePath, facts);
    throw csvFileError(error) ?? error;
  }
}

function refuseWide(columns: number, maxColumns: number): void {
  if (columns > maxColumns) {
    throw badInput(
      `The file has ${columns} columns; a table can have at most ${maxColumns}. Split the file or remove columns.`,
    );
  }
}

function readCsvCall(facts: CsvFileFacts, extra: string): string {
  // Dialect fixed to RFC 4180 with the delimiter found; DuckDB still detects the column types.
  return (
    `read_csv($1, header = true, delim = ${quoteString(facts.delimiter)}, quote = '"', escape = '"', ` +
    `skip = 0, strict_mode = true, null_padding = false, encoding = 'utf-8'${extra})`
  );
}

/**
 * Two steps, together cheaper than reading the file straight into the warehouse: DuckDB reads the
 * file in parallel into a temporary (in-memory, spillable) table, then copies it into the warehouse
 * file, where it compresses. Read straight in, the parallel reader's rows must be put back in file
 * order as they are written, which cost more than the copy (about 520 against 260 + 190 ms for 1M
 * rows on 2 cores). The temporary table's committed rows are numbered in file order by `rowid`, so
 * the copy also fills the row number column, without a window or an UPDATE; it keeps their order,
 * as DuckDB keeps insertion order (an ORDER BY rowid would sort).
 */
async function replaceFromCsv(
  executor: WarehouseExecutor,
  options: CsvImportOptions,
  facts: CsvFileFacts,
  sampleEveryRow: boolean,
): Promise<CsvImportResult> {
  const scratch = quoteIdentifier(`_import_${randomBytes(6).toString('hex')}`);
  const source = readCsvCall(facts, sampleEveryRow ? ', sample_size = -1' : '');
  return executor.session(async (session) => {
    try {
      await session.run(`CREATE TEMP TABLE ${scratch} AS SELECT * FROM ${source}`, [options.filePath]);
      const { columns } = await session.query({ sql: `SELECT * FROM ${scratch} LIMIT 0`, parameters: [] });
      const [count] = await session.all({ sql: `SELECT count(*)::DOUBLE AS n FROM ${scratch}`, parameters: [] });
      refuseWide(columns.length, options.maxColumns);
      const headerNames = columns.map((c) => c.name);
      const readNames = await freeRowid(session, scratch, headerNames);
      const stored = options.storedNames?.(headerNames) ?? headerNames;
      const selected = readNames.map((name, i) => `${quoteIdentifier(name)} AS ${quoteIdentifier(stored[i] ?? name)}`);
      if (options.rowIdColumn) selected.push(`rowid + 1 AS ${quoteIdentifier(options.rowIdColumn)}`);
      const target = quoteQualified(options.schema, options.table);
      const result = { columns, rowCount: Number(count?.n ?? 0) };
      crashPoint('csv-import:read');
      await session.transaction(async (tx) => {
        await tx.run(`DROP TABLE IF EXISTS ${target}`);
        await tx.run(`CREATE TABLE ${target} AS SELECT ${selected.join(', ')} FROM ${scratch}`);
        await options.beforeCommit?.(tx, result);
      });
      return result;
    } finally {
      await session.run(`DROP TABLE IF EXISTS ${scratch}`);
    }
  });
}

/**
 * A column named rowid (in any case) hides DuckDB's row number of that name, so it is renamed in
 * the temporary table. Returns the names to read the columns by.
 */
async function freeRowid(session: WarehouseSession, table: string, names: string[]): Promise<string[]> {
  const taken = new Set(names.map((name) => name.toLowerCase()));
  const readNames: string[] = [];
  for (const name of names) {
    if (name.toLowerCase() !== 'rowid') {
      readNames.push(name);
      continue;
    }
    let free = '_rowid';
    while (taken.has(free)) free = `_${free}`;
    taken.add(free);
    await session.run(`ALTER TABLE ${table} RENAME COLUMN ${quoteIdentifier(name)} TO ${quoteIdentifier(free)}`);
    readNames.push(free);
  }
  return readNames;
}

/**
 * Re-reads the file as plain text columns with nothing detected, which makes DuckDB report the
 * first row with the wrong number of values or an unclosed quote, with its line. Throws that.
 */
async function findStructuralError(executor: WarehouseExecutor, filePath: string, facts: CsvFileFacts): Promise<void> {
  const names = Array.from({ length: facts.headerFields }, (_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const source = readCsvCall(facts, `, auto_detect = false, columns = {${names}}`);
  try {
    await executor.all({ sql: `SELECT count(*) AS n FROM ${source}`, parameters: [filePath] });
  } catch (error) {
    throw csvFileError(error) ?? error;
  }
}

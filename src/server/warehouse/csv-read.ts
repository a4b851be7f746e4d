/**
 * Reading a CSV file with DuckDB, as the import (csv-import.ts) and its preview (csv-preview.ts)
 * both do: the dialect fixed from the file's facts (csv-file.ts), the types sniffed, the retries
 * for late values and mixed line ends, and the structural error named with its line.
 */
import fs from 'node:fs';
import { badInput } from '../errors';
import { columnTypeFromName } from './column-types';
import { csvFileError, isCsvReadError, isDialectError, isLateTypeError } from './csv-errors';
import { csvDialectOptions, type CsvFileFacts } from './csv-file';
import { copyWithUniformLineEnds } from './csv-line-ends';
import { freeName } from './free-name';
import { quoteIdentifier } from './quote';
import type { ResultColumn, WarehouseExecutor, WarehouseSession } from './types';

/**
 * Reads a CSV file as the import and its preview both do, with `read(filePath, extra)`:
 * - first with the types DuckDB sniffs from its sample of rows;
 * - again with every row sniffed (`extra`), when a later value does not fit its sniffed type: when
 *   DuckDB's reader cannot read it, or when the text read for a column (csv-readings.ts) fails its
 *   conversion to the column's type;
 * - when rows end in different ways (CRLF and LF stop DuckDB's strict reader), all of that again on
 *   a copy with one kind of line end.
 * A file still unreadable raises BadInput naming the problem and, when DuckDB knows it, the line.
 */
export async function readCsvFile<T>(
  executor: WarehouseExecutor,
  filePath: string,
  facts: CsvFileFacts,
  read: (filePath: string, extra: string) => Promise<T>,
): Promise<T> {
  const readEitherWay = async (path: string): Promise<T> => {
    try {
      return await read(path, '');
    } catch (error) {
      if (!isLateTypeError(error)) throw error;
      return await read(path, ', sample_size = -1');
    }
  };
  try {
    return await readEitherWay(filePath);
  } catch (error) {
    if (!isCsvReadError(error)) throw csvFileError(error) ?? error;
    const uniform = await copyWithUniformLineEnds(filePath);
    if (uniform) {
      try {
        return await readEitherWay(uniform);
      } catch (retryError) {
        if (isDialectError(retryError)) await findStructuralError(executor, uniform, facts);
        throw csvFileError(retryError) ?? retryError;
      } finally {
        await fs.promises.rm(uniform, { force: true });
      }
    }
    if (isDialectError(error)) await findStructuralError(executor, filePath, facts);
    throw csvFileError(error) ?? error;
  }
}

export function refuseWide(columns: number, maxColumns: number): void {
  if (columns > maxColumns) {
    throw badInput(
      `The file has ${columns} columns; a table can have at most ${maxColumns}. Split the file or remove columns.`,
    );
  }
}

function csvOptions(facts: CsvFileFacts, extra: string): string {
  // The dialect fixed (csv-file.ts); DuckDB still detects the column types.
  return (
    `header = true, ${csvDialectOptions(facts)}, ` +
    `strict_mode = true, null_padding = false, encoding = 'utf-8'${extra}`
  );
}

export const readCsvCall = (facts: CsvFileFacts, extra: string) => `read_csv($1, ${csvOptions(facts, extra)})`;

export interface Sniffed {
  columns: ResultColumn[];
  /** DuckDB chose a date or timestamp format of its own (not ISO) for some columns. */
  guessedDateFormat: boolean;
}

/** A date or timestamp format DuckDB's sniffer chose that is not ISO 8601 (which it reports as `%Y-%m-%d...`). */
const guessed = (format: unknown) => typeof format === 'string' && !format.startsWith('%Y-%m-%d');

/** The header's names and the types DuckDB would read, from its sniffer (which reads the first rows only). */
export async function sniff(
  session: WarehouseSession,
  filePath: string,
  facts: CsvFileFacts,
  extra: string,
): Promise<Sniffed> {
  const rows = await session.all({
    sql:
      `SELECT c.name AS name, c.type AS type, DateFormat AS date_format, TimestampFormat AS timestamp_format ` +
      `FROM (SELECT unnest(Columns) AS c, DateFormat, TimestampFormat FROM sniff_csv($1, ${csvOptions(facts, extra)}))`,
    parameters: [filePath],
  });
  return {
    columns: rows.map((r) => ({
      name: String(r.name),
      sqlType: String(r.type),
      type: columnTypeFromName(String(r.type)),
    })),
    guessedDateFormat: rows.some((r) => guessed(r.date_format) || guessed(r.timestamp_format)),
  };
}

/**
 * A column named rowid (in any case) hides DuckDB's row number of that name, so it is renamed in
 * the temporary table. Returns the names to read the columns by.
 */
export async function freeRowid(session: WarehouseSession, table: string, names: string[]): Promise<string[]> {
  const taken = [...names];
  const readNames: string[] = [];
  for (const name of names) {
    if (name.toLowerCase() !== 'rowid') {
      readNames.push(name);
      continue;
    }
    const free = freeName('_rowid', taken);
    taken.push(free);
    await session.run(`ALTER TABLE ${table} RENAME COLUMN ${quoteIdentifier(name)} TO ${quoteIdentifier(free)}`);
    readNames.push(free);
  }
  return readNames;
}

/**
 * Re-reads the file as plain text columns with nothing detected, which makes DuckDB report the
 * first row with the wrong number of values or an unclosed quote, with its line. Throws that.
 */
export async function findStructuralError(
  executor: WarehouseExecutor,
  filePath: string,
  facts: CsvFileFacts,
): Promise<void> {
  const names = Array.from({ length: facts.headerFields }, (_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const source = readCsvCall(facts, `, auto_detect = false, columns = {${names}}`);
  try {
    await executor.all({ sql: `SELECT count(*) AS n FROM ${source}`, parameters: [filePath] });
  } catch (error) {
    throw csvFileError(error) ?? error;
  }
}

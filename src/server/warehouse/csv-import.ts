import { randomBytes } from 'node:crypto';
import type { ColumnType } from '../../shared/tables';
import { csvFileError, isDialectError, isLateTypeError } from './csv-errors';
import { inspectCsvFile, type CsvFileFacts } from './csv-file';
import { quoteIdentifier, quoteQualified, quoteString } from './quote';
import type { WarehouseExecutor, WarehouseSession } from './types';

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
}

export interface CsvImportResult {
  /** In file order, named as in the header (DuckDB names blank ones `column<n>` and renames repeats `a_1`). */
  columns: { name: string; type: ColumnType; sqlType: string }[];
  rowCount: number;
}

/**
 * Replaces `schema.table` with the rows of a CSV file (header line first, types detected by DuckDB).
 * The read and the swap run in one transaction, so a bad file or a crash leaves the old table as it
 * was. Bad files raise BadInput naming the problem and, when DuckDB knows it, the line.
 */
export async function importCsvToTable(
  executor: WarehouseExecutor,
  options: CsvImportOptions,
): Promise<CsvImportResult> {
  const facts = await inspectCsvFile(options.filePath, options.maxBytes);
  const { schema, table } = options;
  try {
    await executor.exclusive(`schema:${schema}`, () =>
      executor.run(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`),
    );
    return await executor.exclusive(`table:${schema}.${table}`, async () => {
      try {
        return await replaceFromCsv(executor, options, facts, false);
      } catch (error) {
        if (!isLateTypeError(error)) throw error;
        // Types were guessed from a sample; read every row to choose them, at the cost of a second pass.
        return await replaceFromCsv(executor, options, facts, true);
      }
    });
  } catch (error) {
    if (isDialectError(error)) await findStructuralError(executor, options.filePath, facts);
    throw csvFileError(error) ?? error;
  }
}

function readCsvCall(facts: CsvFileFacts, extra: string): string {
  // Dialect fixed to RFC 4180 with the delimiter found; DuckDB still detects the column types.
  return (
    `read_csv($1, header = true, delim = ${quoteString(facts.delimiter)}, quote = '"', escape = '"', ` +
    `skip = 0, strict_mode = true, null_padding = false, encoding = 'utf-8'${extra})`
  );
}

async function replaceFromCsv(
  executor: WarehouseExecutor,
  options: CsvImportOptions,
  facts: CsvFileFacts,
  sampleEveryRow: boolean,
): Promise<CsvImportResult> {
  const staging = `_import_${randomBytes(6).toString('hex')}`;
  const stagingName = quoteQualified(options.schema, staging);
  const source = readCsvCall(facts, sampleEveryRow ? ', sample_size = -1' : '');
  // The staging table is committed before the swap: rowid numbers committed rows in insertion order
  // (kept in file order), while rows a transaction has not yet committed carry provisional rowids.
  await executor.run(`CREATE TABLE ${stagingName} AS SELECT * FROM ${source}`, [options.filePath]);
  try {
    const read = await executor.query({ sql: `SELECT * FROM ${stagingName} LIMIT 0`, parameters: [] });
    const columns = read.columns;
    return await executor.transaction(async (tx: WarehouseSession) => {
      if (options.storedNames) {
        const stored = options.storedNames(columns.map((c) => c.name));
        for (const [i, column] of columns.entries()) {
          const name = stored[i];
          if (name === undefined || name === column.name) continue;
          await tx.run(
            `ALTER TABLE ${stagingName} RENAME COLUMN ${quoteIdentifier(column.name)} TO ${quoteIdentifier(name)}`,
          );
        }
      }
      // After the renames, which free the name if a header used it.
      if (options.rowIdColumn) {
        // Cheaper than numbering with row_number() OVER () while reading, which makes the
        // parallel CSV reader hand its rows over in order.
        const rowId = quoteIdentifier(options.rowIdColumn);
        await tx.run(`ALTER TABLE ${stagingName} ADD COLUMN ${rowId} BIGINT`);
        await tx.run(`UPDATE ${stagingName} SET ${rowId} = rowid + 1`);
      }
      const [count] = await tx.all({ sql: `SELECT count(*)::DOUBLE AS n FROM ${stagingName}`, parameters: [] });
      await tx.run(`DROP TABLE IF EXISTS ${quoteQualified(options.schema, options.table)}`);
      await tx.run(`ALTER TABLE ${stagingName} RENAME TO ${quoteIdentifier(options.table)}`);
      return { columns, rowCount: Number(count?.n ?? 0) };
    });
  } catch (error) {
    await executor.run(`DROP TABLE IF EXISTS ${stagingName}`);
    throw error;
  }
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

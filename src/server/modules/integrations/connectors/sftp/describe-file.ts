/**
 * Column names and storage formats of a data file (CSV, JSON lines, Parquet), as the load will
 * read it. Parquet declares its types: they are kept exactly (DECIMAL(p,s), timestamps of each
 * unit and zone, lists, ...); what DuckDB's reader would round is made exact first (exact-parquet.ts). CSV is sniffed by a throw-away in-memory DuckDB, with one change:
 * columns it would read as DOUBLE are exact decimals (a CSV's `99999999999999.999999` is that
 * number, not the nearest double). JSON lines are read here with every number exact and typed
 * from their values (infer-types.ts). Used by the SFTP and e-mail connectors.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import type { ColumnType } from '../../../../../shared/tables';
import { jsonLines } from '../../../../exact-values/json-lines';
import { csvFileError } from '../../../../warehouse/csv-errors';
import { csvDialectOptions, inspectCsvFile } from '../../../../warehouse/csv-file';
import { uniformLineEndsInPlace } from '../../../../warehouse/csv-line-ends';
import { columnTypeOfFormat, EXACT_DECIMAL, formatOfDuckDbType, formatText, type StorageFormat } from '../formats';
import { exactParquet } from '../parquet/exact-parquet';
import { inferProperties } from '../rest-api/infer-types';

export type DataFileFormat = 'csv' | 'jsonl' | 'parquet';

export interface FileColumn {
  name: string;
  type: ColumnType;
  /** The storage format (formats.ts), e.g. int64, decimal(18,3), list<text>. */
  format: string;
  /** Typed from one file (or a sample of it): a later value that does not fit makes the column text. */
  onMisfit: 'text';
}

/** How many JSON lines discovery types the columns from. */
const JSON_SAMPLE = 1000;

function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function column(name: string, format: StorageFormat, onMisfit: 'text'): FileColumn {
  return { name, type: columnTypeOfFormat(format), format: formatText(format), onMisfit };
}

/** The first records of a JSON lines file, numbers exact. */
async function sampleJsonLines(filePath: string): Promise<Record<string, unknown>[]> {
  for await (const records of jsonLines(filePath, JSON_SAMPLE)) return records;
  return [];
}

export async function describeFile(filePath: string, format: DataFileFormat): Promise<FileColumn[]> {
  if (format === 'jsonl') {
    const properties = inferProperties(await sampleJsonLines(filePath), { primaryKey: [], cursorField: null });
    return properties.map((p) => ({ name: p.name, type: p.type, format: p.format ?? 'text', onMisfit: 'text' }));
  }
  // Rows ending in more than one way (CRLF rows, a last one in LF) would stop DuckDB's strict reader.
  if (format === 'csv') await uniformLineEndsInPlace(filePath);
  // Columns DuckDB would round are made exact first; wide decimals become exact decimal text.
  const exactDecimals = new Set(format === 'parquet' ? await exactParquet(filePath) : []);
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    // A CSV file's dialect is found from its header, as staging reads it (stage-file.ts).
    const reader =
      format === 'csv'
        ? `read_csv(${sqlString(filePath)}, header = true, allow_quoted_nulls = false, ` +
          `${csvDialectOptions(await inspectCsvFile(filePath, Number.MAX_SAFE_INTEGER))})`
        : `read_parquet(${sqlString(filePath)})`;
    const result = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${reader}`).catch((error: unknown) => {
      // A CSV file's fault (not UTF-8, rows of other widths, ...) in the words a static table's import uses.
      const readable = format === 'csv' ? csvFileError(error) : null;
      throw readable ? new Error(readable.message) : error;
    });
    return result.getRowObjectsJson().map((row) => {
      const name = String(row.column_name);
      const declared = exactDecimals.has(name) ? EXACT_DECIMAL : formatOfDuckDbType(String(row.column_type));
      // A later file may declare other types: a value that does not fit makes the column text.
      if (format === 'parquet') return column(name, declared, 'text');
      return column(name, declared.kind === 'double' ? EXACT_DECIMAL : declared, 'text');
    });
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

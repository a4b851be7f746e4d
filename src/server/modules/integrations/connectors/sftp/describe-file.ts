/**
 * Column names and types of a data file (CSV, JSON lines, JSON, Parquet), as DuckDB itself will
 * read it when loading: a throw-away in-memory DuckDB sniffs the file, so discovery and the load
 * agree. Used by the SFTP and e-mail connectors.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import type { ColumnType } from '../../../../../shared/tables';

export type DataFileFormat = 'csv' | 'jsonl' | 'json' | 'parquet';

export interface FileColumn {
  name: string;
  type: ColumnType;
  /** DuckDB's type name, e.g. BIGINT, TIMESTAMP, VARCHAR[]. */
  format: string;
}

/** The warehouse column type of a DuckDB type name. */
export function columnTypeOfDuckDb(typeName: string): ColumnType {
  const t = typeName.toUpperCase();
  if (t.endsWith(']')) return 'Array';
  if (t.startsWith('STRUCT') || t.startsWith('MAP') || t === 'JSON' || t.startsWith('UNION')) return 'Json';
  if (/^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|DOUBLE|FLOAT|REAL|DECIMAL.*|NUMERIC.*)$/.test(t)) return 'Number';
  if (t === 'BOOLEAN') return 'Boolean';
  if (t === 'DATE') return 'Date';
  if (t.startsWith('TIMESTAMP')) return 'DateTime';
  return 'Text';
}

function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** The DuckDB table function reading a file of this format (the path is quoted here). */
export function readFunction(filePath: string, format: DataFileFormat): string {
  const file = sqlString(filePath);
  switch (format) {
    case 'csv':
      return `read_csv(${file}, header = true)`;
    case 'jsonl':
      return `read_json(${file}, format = 'newline_delimited')`;
    case 'json':
      return `read_json(${file}, format = 'auto')`;
    case 'parquet':
      return `read_parquet(${file})`;
  }
}

export async function describeFile(filePath: string, format: DataFileFormat): Promise<FileColumn[]> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${readFunction(filePath, format)}`);
    return reader.getRowObjectsJson().map((row) => ({
      name: String(row.column_name),
      type: columnTypeOfDuckDb(String(row.column_type)),
      format: String(row.column_type),
    }));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

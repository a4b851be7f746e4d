import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { CompiledQuery } from '../../engine/sql';
import { exportCellSql } from './export-cells';
import { quoteIdentifier, quoteQualified, quoteString } from './quote';
import type { WarehouseExecutor } from './types';

export type ExportFormat = 'csv' | 'parquet';

export const EXPORT_FORMATS: Record<ExportFormat, { contentType: string; extension: string; copyOptions: string }> = {
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv', copyOptions: 'FORMAT csv, HEADER true' },
  parquet: { contentType: 'application/vnd.apache.parquet', extension: 'parquet', copyOptions: 'FORMAT parquet' },
};

/** A whole table, or any compiled query (e.g. the grid's filters and sort). */
export type ExportSource = { schema: string; table: string } | CompiledQuery;

/**
 * The rows of `source` as a CSV or Parquet byte stream, in constant memory: DuckDB writes the file
 * with COPY (streaming, spilling as it needs), then the file is read back in small chunks. The
 * scratch file is deleted when the stream closes, whether it was read to the end or abandoned.
 * Rows keep the query's order; values are written exactly (export-cells.ts).
 */
export async function exportTable(
  executor: WarehouseExecutor,
  source: ExportSource,
  format: ExportFormat,
): Promise<Readable> {
  const { extension, copyOptions } = EXPORT_FORMATS[format];
  const plain: CompiledQuery =
    'sql' in source ? source : { sql: `SELECT * FROM ${quoteQualified(source.schema, source.table)}`, parameters: [] };
  const query = await withExactCells(executor, plain, format);
  await fs.mkdir(executor.tempDir, { recursive: true });
  const file = path.join(executor.tempDir, `export-${randomUUID()}.${extension}`);
  try {
    // COPY's target cannot be a parameter; the path is the server's own, quoted as a literal.
    await executor.run(`COPY (${query.sql}) TO ${quoteString(file)} (${copyOptions})`, query.parameters);
  } catch (error) {
    await fs.rm(file, { force: true });
    throw error;
  }
  // Opened before returning, so nothing (such as a cleanup of the folder) can remove it unread.
  const handle = await fs.open(file, 'r');
  const stream = handle.createReadStream();
  stream.once('close', () => void fs.rm(file, { force: true }));
  return stream;
}

/**
 * The query with each column DuckDB would not write exactly as the grid shows it rewritten
 * (export-cells.ts), or the query itself when there is none. The column types come from planning the
 * query with no rows. The outer SELECT only projects, which keeps the inner query's order; the
 * columns are renamed by position, so any names (even repeated ones) pass through unchanged.
 */
async function withExactCells(
  executor: WarehouseExecutor,
  query: CompiledQuery,
  format: ExportFormat,
): Promise<CompiledQuery> {
  const { columns } = await executor.query({
    sql: `SELECT * FROM (${query.sql}) LIMIT 0`,
    parameters: query.parameters,
  });
  const refs = columns.map((_, i) => quoteIdentifier(`c${i}`));
  const cells = columns.map((column, i) => exportCellSql(refs[i]!, column.sqlType, format));
  if (cells.every((cell) => cell === null)) return query;
  const items = columns.map((column, i) => `${cells[i] ?? refs[i]!} AS ${quoteIdentifier(column.name)}`);
  return {
    sql: `SELECT ${items.join(', ')} FROM (${query.sql}) AS exported(${refs.join(', ')})`,
    parameters: query.parameters,
  };
}

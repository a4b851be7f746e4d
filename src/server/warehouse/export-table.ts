import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { CompiledQuery } from '../../engine/sql';
import { quoteQualified, quoteString } from './quote';
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
 */
export async function exportTable(
  executor: WarehouseExecutor,
  source: ExportSource,
  format: ExportFormat,
): Promise<Readable> {
  const { extension, copyOptions } = EXPORT_FORMATS[format];
  const query: CompiledQuery =
    'sql' in source ? source : { sql: `SELECT * FROM ${quoteQualified(source.schema, source.table)}`, parameters: [] };
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

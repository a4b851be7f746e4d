/**
 * A pivot as a Parquet file, with the export's headers (pivot-export.ts) as column names: its rows go
 * to a scratch file of JSON lines under positional keys, DuckDB writes the Parquet file from it, and
 * the file is streamed and deleted as exportTable does. A column holding only numbers is DOUBLE; a
 * Number column some of whose values the data call answers as exact text (sums past 2^53, wide
 * decimals) is DECIMAL(38, s) when every value fits, exactly (its numbers by their shortest digits),
 * else text, never a rounded double; true/false BOOLEAN, any other column text (dates of row fields
 * included: total rows say 'Total').
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { PIVOT_TOTAL_LABEL, type PivotCellValue, type PivotLayout, type PivotRow } from '../../../shared/pivots';
import { quoteIdentifier, quoteString } from '../../warehouse/quote';
import type { ColumnType } from '../../../shared/tables';
import type { WarehouseExecutor } from '../../warehouse/types';
import { pivotHeaders } from '../models/pivot-export';
import { plainNumber } from '../../../shared/number-text';
import { decimalShape } from '../../exact-values/decimal-text';
import { MAX_DECIMAL_DIGITS } from '../../warehouse/decimal-shape-sql';

/** The cells of a row in layout order, 'Total' in the first row-field cell a total row is not grouped by. */
function rowCells(layout: PivotLayout, row: PivotRow): PivotCellValue[] {
  const values = layout.columns.map((column) => row.cells[column.key] ?? null);
  if (row.isTotal) {
    const at = layout.columns.findIndex((c, i) => c.kind === 'row-field' && i >= row.level);
    if (at >= 0 && values[at] === null) values[at] = PIVOT_TOTAL_LABEL;
  }
  return values;
}

const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

/**
 * The DECIMAL(38, s) that holds every value of a Number column exactly (numbers as their shortest
 * digits), or null when one is not a number or needs more than 38 digits.
 */
function decimalType(values: PivotCellValue[]): string | null {
  let whole = 1;
  let scale = 0;
  for (const value of values) {
    const text = typeof value === 'number' ? plainNumber(value) : String(value);
    if (!DECIMAL_TEXT.test(text)) return null;
    const shape = decimalShape(text);
    whole = Math.max(whole, shape.intDigits);
    scale = Math.max(scale, shape.scale);
  }
  return whole + scale <= MAX_DECIMAL_DIGITS ? `DECIMAL(${MAX_DECIMAL_DIGITS},${scale})` : null;
}

function columnType(values: PivotCellValue[], type: ColumnType | undefined): string {
  const present = values.filter((v) => v !== null);
  if (present.length > 0 && present.every((v) => typeof v === 'number')) return 'DOUBLE';
  if (present.length > 0 && present.every((v) => typeof v === 'boolean')) return 'BOOLEAN';
  if (type === 'Number' && present.length > 0) return decimalType(present) ?? 'VARCHAR';
  return 'VARCHAR';
}

/** A cell as its JSON line holds it: text columns' and decimals' values as text (a decimal's exact digits). */
function lineValue(value: PivotCellValue, type: string): PivotCellValue {
  if (value === null) return null;
  if (type === 'VARCHAR') return String(value);
  if (type.startsWith('DECIMAL')) return typeof value === 'number' ? plainNumber(value) : value;
  return value;
}

export async function pivotParquet(
  executor: WarehouseExecutor,
  layout: PivotLayout,
  rows: readonly PivotRow[],
  cellTypes: readonly ColumnType[],
): Promise<Readable> {
  const headers = pivotHeaders(layout);
  const table = rows.map((row) => rowCells(layout, row));
  const types = headers.map((_, i) =>
    columnType(
      table.map((cells) => cells[i] ?? null),
      cellTypes[i],
    ),
  );
  await fs.mkdir(executor.tempDir, { recursive: true });
  const id = randomUUID();
  const lines = path.join(executor.tempDir, `pivot-${id}.jsonl`);
  const file = path.join(executor.tempDir, `pivot-${id}.parquet`);
  try {
    const out = createWriteStream(lines);
    for (const cells of table) {
      const record = Object.fromEntries(cells.map((value, i) => [`c${i}`, lineValue(value, types[i]!)]));
      if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
    // Keys and types are the server's own; the headers (user text) enter only as quoted identifiers.
    const columns = types.map((type, i) => `'c${i}': '${type}'`).join(', ');
    const select = headers.map((header, i) => `${quoteIdentifier(`c${i}`)} AS ${quoteIdentifier(header)}`).join(', ');
    const source = `read_json(${quoteString(lines)}, format = 'newline_delimited', columns = {${columns}})`;
    await executor.run(
      `COPY (SELECT ${select || '1 AS "empty"'} FROM ${source}) TO ${quoteString(file)} (FORMAT parquet)`,
    );
  } catch (error) {
    await fs.rm(file, { force: true });
    throw error;
  } finally {
    await fs.rm(lines, { force: true });
  }
  const handle = await fs.open(file, 'r');
  const stream = handle.createReadStream();
  stream.once('close', () => void fs.rm(file, { force: true }));
  return stream;
}

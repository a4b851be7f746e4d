/**
 * Makes a Parquet file's declared values readable by DuckDB exactly. DuckDB's reader rounds two
 * kinds of column without a word (DuckDB 1.5):
 *
 * - DECIMAL of more than 38 digits (BigQuery's BIGNUMERIC, Spark's wide decimals) is read as DOUBLE.
 *   Such a top-level column is rewritten as the exact decimal text of each value (the footer's
 *   annotation is dropped, so DuckDB hands over the bytes, and each is turned into text here); the
 *   file's key-value metadata names those columns (`EXACT_DECIMALS_KEY`), and discovery types them
 *   as exact decimals: DECIMAL(38, s) where every value fits, else exact text with a [WARN].
 * - TIMESTAMP(NANOS) adjusted to UTC (pandas' and Arrow's `timestamp[ns, tz]`) is read as
 *   TIMESTAMPTZ, which holds microseconds. The annotation is read as a timestamp without zone, so
 *   DuckDB reads TIMESTAMP_NS: the same instants in UTC, every nanosecond kept. TIME(NANOS)
 *   adjusted to UTC (read as TIMETZ, microseconds) likewise becomes TIME_NS, kept as exact text.
 * - INT96 timestamps (Spark's, Hive's and Impala's default: nanoseconds of the day and a Julian
 *   day) are read as TIMESTAMP, microseconds. Such a top-level column is read as its bytes and
 *   rewritten as TIMESTAMP_NS (as exact text when a value lies outside TIMESTAMP_NS's years 1677-2262).
 *
 * Files are changed in place: they are the sync's own downloaded or received copies. A file that
 * needs nothing (most) is only read (its footer). A file that is no Parquet is left to DuckDB to refuse.
 */
import { open, rename, rm, truncate, appendFile } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { quoteIdentifier, quoteString } from '../../../../warehouse/quote';
import { MAX_DECIMAL_DIGITS } from '../formats';
import { decimalTextFunction, int96TextFunction } from './parquet-values';
import {
  fieldOf,
  intOf,
  readStruct,
  structOf,
  T,
  writeStruct,
  type ThriftField,
  type ThriftList,
} from './thrift-compact';

/** The key-value metadata entry naming the columns rewritten as exact decimal text (a JSON array). */
export const EXACT_DECIMALS_KEY = 'workspace.exact_decimals';

const MAGIC = 'PAR1';
/** Parquet's physical types and annotations used here (parquet.thrift). */
const BYTE_ARRAY = 6;
const FIXED_LEN_BYTE_ARRAY = 7;
const CONVERTED_DECIMAL = 5;
const INT96 = 3;
const SCHEMA = {
  type: 1,
  typeLength: 2,
  name: 4,
  numChildren: 5,
  convertedType: 6,
  scale: 7,
  precision: 8,
  logicalType: 10,
};
const LOGICAL = { decimal: 5, time: 7, timestamp: 8 };

interface Footer {
  /** Where the footer's bytes start. */
  start: number;
  meta: ThriftField[];
}

async function readFooter(file: string): Promise<Footer | null> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < 12) return null;
    const tail = Buffer.alloc(8);
    await handle.read(tail, 0, 8, size - 8);
    if (tail.toString('latin1', 4) !== MAGIC) return null;
    const length = tail.readUInt32LE(0);
    const start = size - 8 - length;
    if (start < 4) return null;
    const bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, start);
    try {
      return { start, meta: readStruct(bytes) };
    } catch {
      return null; // A footer this reader does not understand is DuckDB's to read (or refuse) as it is.
    }
  } finally {
    await handle.close();
  }
}

async function writeFooter(file: string, footer: Footer): Promise<void> {
  const bytes = writeStruct(footer.meta);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(bytes.length, 0);
  tail.write(MAGIC, 4, 'latin1');
  await truncate(file, footer.start);
  await appendFile(file, Buffer.concat([bytes, tail]));
}

const text = (value: unknown) => Buffer.from(value as Uint8Array).toString('utf8');

/** The columns an earlier pass rewrote as exact decimal text. */
function markedDecimals(meta: ThriftField[]): string[] {
  const pairs = (fieldOf(meta, 5)?.value as ThriftList | undefined)?.items ?? [];
  for (const pair of pairs) {
    const fields = pair as ThriftField[];
    if (text(fieldOf(fields, 1)?.value) !== EXACT_DECIMALS_KEY) continue;
    const names: unknown = JSON.parse(text(fieldOf(fields, 2)?.value));
    return Array.isArray(names) ? names.map(String) : [];
  }
  return [];
}

interface WideDecimal {
  name: string;
  scale: number;
}

/**
 * Edits the schema's annotations DuckDB would read inexactly; answers the top-level wide decimals,
 * whose annotation is dropped (their bytes are turned into text afterwards).
 */
function editSchema(meta: ThriftField[]): { changed: boolean; wide: WideDecimal[]; int96: string[] } {
  const elements = ((fieldOf(meta, 2)?.value as ThriftList | undefined)?.items ?? []) as ThriftField[][];
  const wide: WideDecimal[] = [];
  const int96: string[] = [];
  let changed = false;
  // Depth of each element (the schema is its tree depth first): the root's children are the top level.
  const remaining: number[] = [];
  elements.forEach((element, index) => {
    while (remaining.length > 0 && remaining[remaining.length - 1] === 0) remaining.pop();
    const depth = remaining.length;
    if (depth > 0) remaining[depth - 1] = (remaining[depth - 1] ?? 0) - 1;
    const children = intOf(element, SCHEMA.numChildren) ?? 0;
    if (children > 0 || index === 0) {
      remaining.push(children);
      return;
    }
    const logical = structOf(element, SCHEMA.logicalType);
    // TIME and TIMESTAMP share their shape: isAdjustedToUTC (1) and the unit (2; NANOS is 3).
    const clock = logical && (structOf(logical, LOGICAL.timestamp) ?? structOf(logical, LOGICAL.time));
    if (clock && fieldOf(clock, 1)?.value === true && structOf(structOf(clock, 2) ?? [], 3)) {
      // NANOS adjusted to UTC: read without zone (TIMESTAMP_NS, TIME_NS), the same instant or time in UTC.
      (fieldOf(clock, 1) as ThriftField).value = false;
      changed = true;
    }
    const decimal = logical && structOf(logical, LOGICAL.decimal);
    const precision = decimal ? intOf(decimal, 2) : intOf(element, SCHEMA.precision);
    const isDecimal = decimal !== undefined || intOf(element, SCHEMA.convertedType) === CONVERTED_DECIMAL;
    const physical = intOf(element, SCHEMA.type);
    if (physical === INT96 && depth === 1) {
      // Read as its 12 bytes (FIXED_LEN_BYTE_ARRAY), turned into a timestamp of nanoseconds afterwards.
      int96.push(text(fieldOf(element, SCHEMA.name)?.value));
      const rest = element.filter((f) => f.id !== SCHEMA.type && f.id !== SCHEMA.typeLength);
      element.splice(0, element.length, i32(SCHEMA.type, FIXED_LEN_BYTE_ARRAY), i32(SCHEMA.typeLength, 12), ...rest);
      changed = true;
    }
    if (
      isDecimal &&
      precision !== undefined &&
      precision > MAX_DECIMAL_DIGITS &&
      depth === 1 &&
      (physical === FIXED_LEN_BYTE_ARRAY || physical === BYTE_ARRAY)
    ) {
      const scale = (decimal ? intOf(decimal, 1) : intOf(element, SCHEMA.scale)) ?? 0;
      wide.push({ name: text(fieldOf(element, SCHEMA.name)?.value), scale });
      const drop = new Set([SCHEMA.convertedType, SCHEMA.scale, SCHEMA.precision, SCHEMA.logicalType]);
      element.splice(0, element.length, ...element.filter((f) => !drop.has(f.id)));
      changed = true;
    }
  });
  if (int96.length > 0) int96AsBytes(meta, new Set(int96));
  return { changed, wide, int96 };
}

const i32 = (id: number, value: number): ThriftField => ({ id, type: T.I32, value: BigInt(value) });

/** The row groups' chunks of the INT96 columns are FIXED_LEN_BYTE_ARRAY too (their statistics dropped). */
function int96AsBytes(meta: ThriftField[], names: ReadonlySet<string>): void {
  const groups = ((fieldOf(meta, 4)?.value as ThriftList | undefined)?.items ?? []) as ThriftField[][];
  for (const group of groups) {
    for (const chunk of ((fieldOf(group, 1)?.value as ThriftList | undefined)?.items ?? []) as ThriftField[][]) {
      const data = structOf(chunk, 3);
      const path = ((data && (fieldOf(data, 3)?.value as ThriftList | undefined)?.items) ?? []).map(text);
      if (!data || path.length !== 1 || !names.has(path[0] ?? '')) continue;
      const rest = data.filter((f) => f.id !== 1 && f.id !== 12);
      data.splice(0, data.length, i32(1, FIXED_LEN_BYTE_ARRAY), ...rest);
    }
  }
}

/**
 * Rewrites the file with each wide decimal column as its values' exact text (marked in the
 * metadata) and each INT96 column as TIMESTAMP_NS (as exact text where a value is outside its range).
 */
async function rewrite(file: string, wide: WideDecimal[], int96: string[], marked: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  const source = `read_parquet(${quoteString(file)})`;
  const target = `${file}.exact`;
  try {
    connection.registerScalarFunction(decimalTextFunction());
    connection.registerScalarFunction(int96TextFunction());
    const replaced = wide.map(
      (c) => `parquet_decimal_text(${quoteIdentifier(c.name)}, ${c.scale}) AS ${quoteIdentifier(c.name)}`,
    );
    for (const name of int96) {
      const value = `parquet_int96_text(${quoteIdentifier(name)})`;
      const outside = await connection.runAndReadAll(
        `SELECT count(*) FILTER (WHERE v IS NOT NULL AND TRY_CAST(v AS TIMESTAMP_NS) IS NULL)::DOUBLE AS n ` +
          `FROM (SELECT ${value} AS v FROM ${source})`,
      );
      const fits = Number(outside.getRowObjectsJson()[0]?.n ?? 0) === 0;
      replaced.push(`${fits ? `CAST(${value} AS TIMESTAMP_NS)` : value} AS ${quoteIdentifier(name)}`);
    }
    const names = quoteString(JSON.stringify([...marked, ...wide.map((c) => c.name)]));
    await connection.run(
      `COPY (SELECT * REPLACE (${replaced.join(', ')}) FROM ${source}) TO ${quoteString(target)} ` +
        `(FORMAT parquet, KV_METADATA {${quoteString(EXACT_DECIMALS_KEY)}: ${names}})`,
    );
    await rename(target, file);
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Prepares a Parquet file for DuckDB's exact reading (see above); answers the names of its columns
 * that hold exact decimal text. Running it again on the same file changes nothing.
 */
export async function exactParquet(file: string): Promise<string[]> {
  const footer = await readFooter(file);
  if (!footer) return [];
  const marked = markedDecimals(footer.meta);
  const { changed, wide, int96 } = editSchema(footer.meta);
  if (!changed) return marked;
  await writeFooter(file, footer);
  if (wide.length > 0 || int96.length > 0) await rewrite(file, wide, int96, marked);
  return [...marked, ...wide.map((c) => c.name)];
}

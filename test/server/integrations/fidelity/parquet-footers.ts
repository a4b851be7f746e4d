/**
 * Parquet files as other writers make them, from files a DuckDB of the test's own wrote: the footer's
 * annotations are edited where DuckDB cannot write them (decimals of more than 38 digits, nanosecond
 * timestamps adjusted to UTC), the values' bytes left as they are.
 */
import { readFile, writeFile } from 'node:fs/promises';
import {
  fieldOf,
  readStruct,
  structOf,
  T,
  writeStruct,
  type ThriftField,
  type ThriftList,
} from '../../../../src/server/modules/integrations/connectors/parquet/thrift-compact';

async function editFooter(file: string, edit: (schema: ThriftField[][]) => void): Promise<void> {
  const bytes = await readFile(file);
  const length = bytes.readUInt32LE(bytes.length - 8);
  const start = bytes.length - 8 - length;
  const meta = readStruct(bytes.subarray(start, bytes.length - 8));
  edit((fieldOf(meta, 2)?.value as ThriftList).items as ThriftField[][]);
  const footer = writeStruct(meta);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(footer.length, 0);
  tail.write('PAR1', 4, 'latin1');
  await writeFile(file, Buffer.concat([bytes.subarray(0, start), footer, tail]));
}

function element(schema: ThriftField[][], name: string): ThriftField[] {
  const found = schema.find((e) => Buffer.from(fieldOf(e, 4)?.value as Uint8Array).toString() === name);
  if (!found) throw new Error(`no column ${name}`);
  return found;
}

const i32 = (id: number, value: number): ThriftField => ({ id, type: T.I32, value: BigInt(value) });

/** A BLOB column (BYTE_ARRAY) becomes DECIMAL(precision, scale): its bytes are the big-endian unscaled values. */
export async function declareDecimal(file: string, column: string, precision: number, scale: number): Promise<void> {
  await editFooter(file, (schema) => {
    const e = element(schema, column);
    const keep = e.filter((f) => ![6, 7, 8, 10].includes(f.id));
    const decimal: ThriftField = { id: 5, type: T.STRUCT, value: [i32(1, scale), i32(2, precision)] };
    e.splice(0, e.length, ...keep, i32(6, 5), i32(7, scale), i32(8, precision), {
      id: 10,
      type: T.STRUCT,
      value: [decimal],
    });
  });
}

/** A TIMESTAMP_NS or TIME_NS column becomes adjusted to UTC (Arrow's `timestamp[ns, tz]`). */
export async function adjustToUtc(file: string, column: string): Promise<void> {
  await editFooter(file, (schema) => {
    const logical = structOf(element(schema, column), 10) ?? [];
    const clock = structOf(logical, 8) ?? structOf(logical, 7);
    const adjusted = clock && fieldOf(clock, 1);
    if (!adjusted) throw new Error(`${column} is no timestamp or time`);
    adjusted.value = true;
  });
}

/** Big-endian two's complement of `value` in `bytes` bytes, as hex for DuckDB's from_hex. */
export function twosComplementHex(value: bigint, bytes: number): string {
  const unsigned = value < 0n ? (1n << BigInt(bytes * 8)) + value : value;
  return unsigned.toString(16).padStart(bytes * 2, '0');
}

/**
 * An INTERVAL column (12 fixed bytes: months, days, milliseconds, each 32-bit little-endian) becomes
 * INT96 (nanoseconds of the day, 64-bit, then the Julian day, 32-bit), as Spark, Hive and Impala write
 * timestamps. `int96Interval` gives the INTERVAL whose bytes are a timestamp's.
 */
export async function declareInt96(file: string, column: string): Promise<void> {
  const bytes = await readFile(file);
  const length = bytes.readUInt32LE(bytes.length - 8);
  const start = bytes.length - 8 - length;
  const meta = readStruct(bytes.subarray(start, bytes.length - 8));
  const schema = (fieldOf(meta, 2)?.value as ThriftList).items as ThriftField[][];
  const e = element(schema, column);
  e.splice(0, e.length, ...e.filter((f) => ![1, 2, 6, 10].includes(f.id)), i32(1, 3));
  for (const group of (fieldOf(meta, 4)?.value as ThriftList).items as ThriftField[][]) {
    for (const chunk of (fieldOf(group, 1)?.value as ThriftList).items as ThriftField[][]) {
      const data = structOf(chunk, 3);
      const pathIn = (data && (fieldOf(data, 3)?.value as ThriftList).items) ?? [];
      if (data && Buffer.from(pathIn[0] as Uint8Array).toString() === column) {
        (fieldOf(data, 1) as ThriftField).value = 3n;
        // Statistics of 12-byte intervals mean nothing for INT96 (and no reader uses INT96's).
        data.splice(0, data.length, ...data.filter((f) => f.id !== 12));
      }
    }
  }
  const footer = writeStruct(meta);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(footer.length, 0);
  tail.write('PAR1', 4, 'latin1');
  await writeFile(file, Buffer.concat([bytes.subarray(0, start), footer, tail]));
}

/** DuckDB SQL of the INTERVAL whose 12 Parquet bytes are INT96 of `julianDay` and `nanosOfDay`. */
export function int96Interval(julianDay: number, nanosOfDay: bigint): string {
  const low = Number(BigInt.asIntN(32, nanosOfDay & 0xffffffffn));
  const high = Number(nanosOfDay >> 32n);
  return `(to_months(${low}) + to_days(${high}) + to_milliseconds(${julianDay}))`;
}

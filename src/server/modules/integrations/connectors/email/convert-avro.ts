/**
 * Avro object container files -> JSON lines (DuckDB's avro extension cannot be installed offline).
 * avsc decodes the blocks (null and deflate codecs); logical types become what the warehouse reads:
 * dates as YYYY-MM-DD (a date BC as `0044-03-15 BC`, a year past 9999 with its digits: such
 * values are no ISO date, so their column stays exact text), timestamps as ISO instants
 * (microseconds kept), decimals as exact numbers, longs as exact numbers (BigInt), bytes as base64,
 * and a double's NaN or ±Infinity, which JSON has no number for, as its name (the column is then
 * exact text, never a null in the value's place).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import avro from 'avsc';
import { exactJsonText, ExactNumber } from '../../../../exact-values/json';

type AvroSchema = Parameters<typeof avro.Type.forSchema>[0];

/** Days since 1970-01-01 as a date's text, any year (Date's ISO text writes ±YYYYYY beyond 0000-9999). */
export function avroDateText(days: number): string {
  const iso = new Date(days * 86_400_000).toISOString();
  const match = /^([+-]?\d+)-(\d{2})-(\d{2})T/.exec(iso);
  if (!match) throw new Error(`the date ${days} days from 1970-01-01 is out of range`);
  const year = Number(match[1]);
  const monthDay = `${match[2]}-${match[3]}`;
  if (year <= 0) return `${String(1 - year).padStart(4, '0')}-${monthDay} BC`;
  return `${String(year).padStart(4, '0')}-${monthDay}`;
}

class DateType extends avro.types.LogicalType {
  protected override _fromValue(days: number): string {
    return avroDateText(days);
  }
  protected override _toValue(value: string): number {
    return Math.round(Date.parse(value) / 86_400_000);
  }
}

class TimestampMillisType extends avro.types.LogicalType {
  protected override _fromValue(ms: bigint | number): string {
    return new Date(Number(ms)).toISOString();
  }
  protected override _toValue(value: string): bigint {
    return BigInt(Date.parse(value));
  }
}

/** Microseconds since the epoch as an ISO instant with every digit (Date keeps milliseconds only). */
function microsText(us: bigint): string {
  const ms = us / 1000n - (us % 1000n < 0n ? 1n : 0n);
  const rest = us - ms * 1000n;
  const iso = new Date(Number(ms)).toISOString();
  return rest === 0n ? iso : `${iso.slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

class TimestampMicrosType extends avro.types.LogicalType {
  protected override _fromValue(us: bigint | number): string {
    return microsText(BigInt(us));
  }
  protected override _toValue(value: string): bigint {
    return BigInt(Date.parse(value)) * 1000n;
  }
}

/** Decimals stored as big-endian two's complement bytes with the schema's scale: exact decimal text. */
class DecimalType extends avro.types.LogicalType {
  private readonly scale: number;
  constructor(schema: AvroSchema, opts?: object) {
    super(schema, opts);
    this.scale = Number((schema as { scale?: number }).scale ?? 0);
  }
  protected override _fromValue(bytes: Buffer): ExactNumber {
    let unscaled = 0n;
    for (const b of bytes) unscaled = (unscaled << 8n) | BigInt(b);
    if (bytes.length > 0 && (bytes[0] ?? 0) & 0x80) unscaled -= 1n << BigInt(bytes.length * 8);
    const negative = unscaled < 0n;
    const digits = (negative ? -unscaled : unscaled).toString().padStart(this.scale + 1, '0');
    const point = digits.length - this.scale;
    const text = this.scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
    return new ExactNumber(`${negative ? '-' : ''}${text}`);
  }
  protected override _toValue(): Buffer {
    throw new Error('Encoding decimals is not supported');
  }
}

const logicalTypes = {
  date: DateType,
  'timestamp-millis': TimestampMillisType,
  'timestamp-micros': TimestampMicrosType,
  decimal: DecimalType,
};

/** Avro longs as BigInt: the default type refuses any beyond 2^53 ('potential precision loss'). */
const longType = avro.types.LongType.__with({
  fromBuffer: (buffer: Buffer) => buffer.readBigInt64LE(),
  toBuffer: (value: bigint) => {
    const buffer = Buffer.alloc(8);
    buffer.writeBigInt64LE(BigInt(value));
    return buffer;
  },
  fromJSON: (value: unknown) => BigInt(value as string),
  toJSON: (value: bigint) => Number(value),
  isValid: (value: unknown) => typeof value === 'bigint',
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

/** Bytes as base64 text; numbers stay what they are (bigint and ExactNumber are written exactly). */
function plainValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return value.toString('base64');
  // JSON would write null: the value's name keeps it (NaN, Infinity, -Infinity).
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return value.map(plainValue);
  if (value && typeof value === 'object' && !(value instanceof ExactNumber)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainValue(item)]));
  }
  return value;
}

/** Writes one JSON object per record; returns the number of records. */
export async function avroToJsonLines(avroPath: string, jsonlPath: string): Promise<number> {
  const decoder = avro.createFileDecoder(avroPath, {
    parseHook: (schema) =>
      avro.Type.forSchema(schema, { logicalTypes, wrapUnions: false, registry: { long: longType } }),
  });
  const out = createWriteStream(jsonlPath);
  let rows = 0;
  try {
    for await (const record of decoder as AsyncIterable<unknown>) {
      rows++;
      if (!out.write(`${exactJsonText(plainValue(record))}\n`)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await finished(out);
  }
  return rows;
}

/**
 * Avro object container files -> JSON lines (DuckDB's avro extension cannot be installed offline).
 * avsc decodes the blocks (null and deflate codecs); logical types become what the warehouse reads:
 * dates as YYYY-MM-DD, timestamps as ISO instants, decimals as numbers, bytes as base64.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import avro from 'avsc';

type AvroSchema = Parameters<typeof avro.Type.forSchema>[0];

class DateType extends avro.types.LogicalType {
  protected override _fromValue(days: number): string {
    return new Date(days * 86_400_000).toISOString().slice(0, 10);
  }
  protected override _toValue(value: string): number {
    return Math.round(Date.parse(value) / 86_400_000);
  }
}

class TimestampMillisType extends avro.types.LogicalType {
  protected override _fromValue(ms: number): string {
    return new Date(ms).toISOString();
  }
  protected override _toValue(value: string): number {
    return Date.parse(value);
  }
}

class TimestampMicrosType extends avro.types.LogicalType {
  protected override _fromValue(us: number): string {
    return new Date(Math.floor(us / 1000)).toISOString();
  }
  protected override _toValue(value: string): number {
    return Date.parse(value) * 1000;
  }
}

/** Decimals stored as big-endian two's complement bytes with the schema's scale. */
class DecimalType extends avro.types.LogicalType {
  private readonly scale: number;
  constructor(schema: AvroSchema, opts?: object) {
    super(schema, opts);
    this.scale = Number((schema as { scale?: number }).scale ?? 0);
  }
  protected override _fromValue(bytes: Buffer): number {
    let unscaled = 0n;
    for (const b of bytes) unscaled = (unscaled << 8n) | BigInt(b);
    if (bytes.length > 0 && (bytes[0] ?? 0) & 0x80) unscaled -= 1n << BigInt(bytes.length * 8);
    return Number(unscaled) / 10 ** this.scale;
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

function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer') {
    return Buffer.from((value as { data: number[] }).data).toString('base64');
  }
  return value;
}

/** Writes one JSON object per record; returns the number of records. */
export async function avroToJsonLines(avroPath: string, jsonlPath: string): Promise<number> {
  const decoder = avro.createFileDecoder(avroPath, {
    parseHook: (schema) => avro.Type.forSchema(schema, { logicalTypes, wrapUnions: false }),
  });
  const out = createWriteStream(jsonlPath);
  let rows = 0;
  try {
    for await (const record of decoder as AsyncIterable<unknown>) {
      rows++;
      if (!out.write(`${JSON.stringify(record, jsonValue)}\n`)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await finished(out);
  }
  return rows;
}

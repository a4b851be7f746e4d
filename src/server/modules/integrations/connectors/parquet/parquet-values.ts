/**
 * Parquet values DuckDB's reader would round, from their bytes (exact-parquet.ts hands them over
 * as BLOBs), as exact text: scalar functions of the throw-away DuckDB that rewrites such a file.
 */
import { BLOB, DuckDBScalarFunction, INTEGER, VARCHAR, type DuckDBBlobValue } from '@duckdb/node-api';

/** Big-endian two's complement bytes with `scale` digits after the point, as exact decimal text. */
export function decimalBytesText(bytes: Uint8Array, scale: number): string {
  let unscaled = 0n;
  for (const b of bytes) unscaled = (unscaled << 8n) | BigInt(b);
  if (bytes.length > 0 && (bytes[0] ?? 0) & 0x80) unscaled -= 1n << BigInt(bytes.length * 8);
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const point = digits.length - scale;
  const body = scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${negative ? '-' : ''}${body}`;
}

/** The Julian day of 1970-01-01. */
const UNIX_EPOCH_JULIAN_DAY = 2_440_588;
const NANOS_PER_SECOND = 1_000_000_000n;

const pad = (n: bigint | number, width: number) => String(n).padStart(width, '0');

/**
 * An INT96 timestamp (nanoseconds of the day, 64-bit little-endian, then the Julian day, 32-bit) as
 * `YYYY-MM-DD HH:MM:SS.nnnnnnnnn`, every nanosecond kept; a year before 1 with ` BC`.
 */
export function int96Text(bytes: Uint8Array): string {
  if (bytes.length !== 12) throw new Error(`an INT96 value has 12 bytes, not ${bytes.length}`);
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nanosOfDay = view.readBigInt64LE(0);
  const day = view.readInt32LE(8) - UNIX_EPOCH_JULIAN_DAY;
  // Nanoseconds beyond one day (writers do not, but the bytes allow it) carry into the date.
  const carry = nanosOfDay >= 0n ? nanosOfDay / (86_400n * NANOS_PER_SECOND) : -1n;
  const nanos = nanosOfDay - carry * 86_400n * NANOS_PER_SECOND;
  const iso = new Date((day + Number(carry)) * 86_400_000).toISOString();
  const match = /^([+-]?\d+)-(\d{2})-(\d{2})T/.exec(iso);
  if (!match) throw new Error(`the INT96 day ${day} is out of range`);
  const year = Number(match[1]);
  const seconds = nanos / NANOS_PER_SECOND;
  const clock =
    `${pad(seconds / 3600n, 2)}:${pad((seconds / 60n) % 60n, 2)}:${pad(seconds % 60n, 2)}` +
    `.${pad(nanos % NANOS_PER_SECOND, 9)}`;
  const date = `${pad(year <= 0 ? 1 - year : year, 4)}-${match[2]}-${match[3]}`;
  return `${date} ${clock}${year <= 0 ? ' BC' : ''}`;
}

export const decimalTextFunction = () =>
  DuckDBScalarFunction.create({
    name: 'parquet_decimal_text',
    returnType: VARCHAR,
    parameterTypes: [BLOB, INTEGER],
    mainFunction: (_info, input, output) => {
      const values = input.getColumnVector(0);
      const scales = input.getColumnVector(1);
      for (let row = 0; row < input.rowCount; row++) {
        const value = values.getItem(row) as DuckDBBlobValue | null;
        output.setItem(row, value === null ? null : decimalBytesText(value.bytes, Number(scales.getItem(row))));
      }
      output.flush();
    },
  });

export const int96TextFunction = () =>
  DuckDBScalarFunction.create({
    name: 'parquet_int96_text',
    returnType: VARCHAR,
    parameterTypes: [BLOB],
    mainFunction: (_info, input, output) => {
      const values = input.getColumnVector(0);
      for (let row = 0; row < input.rowCount; row++) {
        const value = values.getItem(row) as DuckDBBlobValue | null;
        output.setItem(row, value === null ? null : int96Text(value.bytes));
      }
      output.flush();
    },
  });

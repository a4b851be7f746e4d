import {
  DuckDBArrayValue,
  DuckDBBitValue,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBGeometryValue,
  DuckDBIntervalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimeNSValue,
  DuckDBTimeTZValue,
  DuckDBTimeValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  DuckDBUUIDValue,
  DuckDBUnionValue,
  DuckDBVariantValue,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { fitsDouble } from '../exact-values/decimal-text';
import { parseJsonExact } from '../exact-values/json';
import {
  dateText,
  infinityText,
  intervalText,
  timeNsText,
  timeText,
  timeTzText,
  timestampInUnits,
  type TimestampUnit,
} from './temporal-text';

/**
 * The one place DuckDB values become JSON-safe values. Numbers that a JS number would round become
 * text; dates, times and intervals become ISO text; nested values become arrays and objects.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `type` is the value's column type; it tells JSON text (alias JSON) from other text. */
export function toJsonValue(value: DuckDBValue, type?: DuckDBType): JsonValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    return type?.typeId === DuckDBTypeId.FLOAT ? shortestFloat32(value) : value;
  }
  if (typeof value === 'bigint') return integerValue(value);
  if (typeof value === 'string') return type?.alias === 'JSON' ? parsedJson(value) : value;
  if (value instanceof DuckDBDecimalValue) return decimalValue(value);
  if (value instanceof DuckDBDateValue) return dateText(value);
  // Every timestamp class counts from the epoch in UTC (TIMESTAMPTZ too); only the unit differs.
  if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) {
    return timestamp(value.micros, 'micros', value.isFinite);
  }
  if (value instanceof DuckDBTimestampSecondsValue) return timestamp(value.seconds, 'seconds', value.isFinite);
  if (value instanceof DuckDBTimestampMillisecondsValue) return timestamp(value.millis, 'millis', value.isFinite);
  if (value instanceof DuckDBTimestampNanosecondsValue) return timestamp(value.nanos, 'nanos', value.isFinite);
  if (value instanceof DuckDBTimeValue) return timeText(value.micros);
  if (value instanceof DuckDBTimeNSValue) return timeNsText(value.nanos);
  if (value instanceof DuckDBTimeTZValue) return timeTzText(value);
  if (value instanceof DuckDBIntervalValue) return intervalText(value);
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
    const itemType =
      type?.typeId === DuckDBTypeId.LIST || type?.typeId === DuckDBTypeId.ARRAY ? type.valueType : undefined;
    return value.items.map((item) => toJsonValue(item, itemType));
  }
  if (value instanceof DuckDBStructValue) return structValue(value, type);
  if (value instanceof DuckDBMapValue) return mapValue(value, type);
  if (value instanceof DuckDBUnionValue) {
    const memberType = type?.typeId === DuckDBTypeId.UNION ? type.memberTypeForTag(value.tag) : undefined;
    return toJsonValue(value.value, memberType);
  }
  if (value instanceof DuckDBVariantValue) return toJsonValue(value.value, value.type);
  if (value instanceof DuckDBBlobValue || value instanceof DuckDBGeometryValue) {
    return Buffer.from(value.bytes).toString('base64');
  }
  if (value instanceof DuckDBUUIDValue || value instanceof DuckDBBitValue) return value.toString();
  return exhausted(value);
}

/** Exact integers stay numbers; beyond 2^53 a number would silently change the value, so text. */
function integerValue(value: bigint): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value.toString();
}

/**
 * A number when the double prints (shortest, as JSON does) as the same decimal, else the exact
 * decimal text: 48121060423.283203 has a nearest double that JSON writes as 48121060423.2832.
 */
function decimalValue(value: DuckDBDecimalValue): number | string {
  const text = value.toString();
  return fitsDouble(text) ? Number(text) : text;
}

/** The two floats next to a float (by magnitude), through its bits. */
function floatNeighbours(value: number): [number, number] {
  const float = new Float32Array(1);
  const bits = new Uint32Array(float.buffer);
  float[0] = value;
  const own = bits[0] as number;
  bits[0] = own + 1;
  const above = float[0] as number;
  bits[0] = own - 1;
  return [above, float[0] as number];
}

/**
 * A FLOAT (4 bytes) arrives as the double of the same value, which prints with the double's digits
 * (0.1 as 0.10000000149011612). What it holds is the shortest decimal that reads back as the same
 * float, strictly nearer to it than to either neighbour (a decimal halfway between two floats is
 * read differently by different readers), the nearest such, ties to an even last digit: what
 * PostgreSQL prints.
 */
function shortestFloat32(value: number): number {
  if (value === 0) return value;
  const halfways = floatNeighbours(value).map((next) => (value + next) / 2);
  for (let digits = 1; digits <= 9; digits++) {
    const [mantissa = '', exponent = '0'] = value.toExponential(digits - 1).split('e');
    const scale = Number(exponent) - (digits - 1);
    const rounded = BigInt(mantissa.replace('.', ''));
    let best: { n: number; distance: number } | null = null;
    for (const candidate of [rounded - 1n, rounded, rounded + 1n]) {
      const n = Number(`${candidate}e${scale}`);
      if (Math.fround(n) !== value || halfways.includes(n)) continue;
      const distance = Math.abs(n - value);
      if (!best || distance < best.distance || (distance === best.distance && candidate % 2n === 0n)) {
        best = { n, distance };
      }
    }
    if (best) return best.n;
  }
  return value;
}

/**
 * JSON columns hold text; invalid text (DuckDB does not always check it) is shown as it is. A
 * number a double would change (more than 15 digits) becomes its exact text, like a BIGINT.
 */
function parsedJson(text: string): JsonValue {
  try {
    return parseJsonExact(text, (n) => (fitsDouble(n.text) ? Number(n.text) : n.text)) as JsonValue;
  } catch {
    return text;
  }
}

function structValue(value: DuckDBStructValue, type: DuckDBType | undefined): JsonValue {
  // Own properties for every field name, `__proto__` included (see session.ts rowObjects).
  return Object.fromEntries(
    Object.entries(value.entries).map(([name, entry]) => {
      const entryType = type?.typeId === DuckDBTypeId.STRUCT ? type.typeForEntry(name) : undefined;
      return [name, toJsonValue(entry, entryType)];
    }),
  );
}

/** Maps become objects; keys that are not text are written as their JSON text. */
function mapValue(value: DuckDBMapValue, type: DuckDBType | undefined): JsonValue {
  const keyType = type?.typeId === DuckDBTypeId.MAP ? type.keyType : undefined;
  const valueType = type?.typeId === DuckDBTypeId.MAP ? type.valueType : undefined;
  return Object.fromEntries(
    value.entries.map((entry) => {
      const key = toJsonValue(entry.key, keyType);
      return [typeof key === 'string' ? key : JSON.stringify(key), toJsonValue(entry.value, valueType)];
    }),
  );
}

function timestamp(amount: bigint, unit: TimestampUnit, finite: boolean): string {
  return finite ? timestampInUnits(amount, unit) : infinityText(amount > 0n);
}

/** Fails to compile when DuckDB adds a value class this module does not handle. */
function exhausted(value: never): never {
  throw new Error(`Unexpected DuckDB value: ${String(value)}`);
}

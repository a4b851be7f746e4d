/**
 * What the engine needs to know of a numeric column's SQL type (`RelationColumn.sqlType`, the
 * warehouse's own name for it, e.g. `BIGINT`, `DECIMAL(20,6)`, `HUGEINT`) to compare it exactly:
 * the grid of values it holds (multiples of 10^-scale) and their range. FLOAT and DOUBLE columns
 * are approximate: their values are compared as doubles whatever the filter says.
 */
import type { SqlType } from '../sql-ast';
import { pow10 } from './exact-number';

/** An integer or DECIMAL type: values are `unscaled × 10^-scale` with `min <= unscaled <= max`. */
export interface ExactNumericType {
  kind: 'exact';
  /** The type a bound value is cast to, so the comparison stays in the column's type. */
  sqlType: SqlType;
  scale: number;
  /** Bounds as digits at `scale`; null where the type has none (BIGNUM). */
  min: bigint | null;
  max: bigint | null;
}

/** DOUBLE, or FLOAT (`float`: 4 bytes, whose values the grid shows with their own shortest digits). */
export type NumericType = ExactNumericType | { kind: 'approximate'; float: boolean };

const signedBits = (bits: number): [bigint, bigint] => [-(2n ** BigInt(bits - 1)), 2n ** BigInt(bits - 1) - 1n];
const unsignedBits = (bits: number): [bigint, bigint] => [0n, 2n ** BigInt(bits) - 1n];

const integer = (sqlType: SqlType, [min, max]: [bigint, bigint] | [null, null]): ExactNumericType => ({
  kind: 'exact',
  sqlType,
  scale: 0,
  min,
  max,
});

/** Each integer type under every name DuckDB accepts for it (it prints the first). */
const INTEGER_TYPES: readonly [readonly string[], ExactNumericType][] = [
  [['TINYINT', 'INT1'], integer('tinyint', signedBits(8))],
  [['SMALLINT', 'INT2', 'SHORT'], integer('smallint', signedBits(16))],
  [['INTEGER', 'INT4', 'INT', 'SIGNED'], integer('integer', signedBits(32))],
  [['BIGINT', 'INT8', 'LONG'], integer('bigint', signedBits(64))],
  [['HUGEINT', 'INT128'], integer('hugeint', signedBits(128))],
  [['UTINYINT', 'UINT8'], integer('utinyint', unsignedBits(8))],
  [['USMALLINT', 'UINT16'], integer('usmallint', unsignedBits(16))],
  [['UINTEGER', 'UINT32'], integer('uinteger', unsignedBits(32))],
  [['UBIGINT', 'UINT64'], integer('ubigint', unsignedBits(64))],
  [['UHUGEINT', 'UINT128'], integer('uhugeint', unsignedBits(128))],
  [['BIGNUM', 'VARINT'], integer('bignum', [null, null])],
];

const BY_NAME = new Map(INTEGER_TYPES.flatMap(([names, type]) => names.map((name) => [name, type] as const)));

const DOUBLES = new Set(['DOUBLE', 'FLOAT8', 'DOUBLE PRECISION']);
const FLOATS = new Set(['FLOAT', 'FLOAT4', 'REAL']);

/** DuckDB's DECIMAL without (p, s) is DECIMAL(18, 3). */
const DEFAULT_DECIMAL: [number, number] = [18, 3];

export const MAX_DECIMAL_PRECISION = 38;

export function decimalType(precision: number, scale: number): ExactNumericType {
  const bound = pow10(precision) - 1n;
  return { kind: 'exact', sqlType: `decimal(${precision},${scale})`, scale, min: -bound, max: bound };
}

/**
 * The numeric type a column's SQL type name stands for, or null when the name is unknown, absent
 * or not numeric: callers then bind numbers the way that is safe without knowing the type.
 */
export function numericType(sqlType: string | null | undefined): NumericType | null {
  if (!sqlType) return null;
  const name = sqlType.trim().toUpperCase().replace(/\s+/g, ' ');
  const known = BY_NAME.get(name);
  if (known) return known;
  if (DOUBLES.has(name)) return { kind: 'approximate', float: false };
  if (FLOATS.has(name)) return { kind: 'approximate', float: true };
  const decimal = /^(?:DECIMAL|NUMERIC)(?: ?\( ?(\d+) ?(?:, ?(\d+) ?)?\))?$/.exec(name);
  if (!decimal) return null;
  const precision = decimal[1] === undefined ? DEFAULT_DECIMAL[0] : Number(decimal[1]);
  const scale = decimal[1] === undefined ? DEFAULT_DECIMAL[1] : Number(decimal[2] ?? 0);
  if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale > precision) return null;
  return decimalType(precision, scale);
}

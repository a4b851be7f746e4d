/**
 * Columns of exact numeric types (integers of every width, DECIMALs) for the exactness tests, and
 * an independent reference of how a filter value compares with a cell: BigInt arithmetic on the
 * digits, no JS double anywhere.
 */
import type { FilterOperator } from '../../src/shared/tables';

export interface ExactColumn {
  columnKey: string;
  sqlType: string;
  scale: number;
  /** Digits at `scale`. */
  min: bigint;
  max: bigint;
}

const bits = (n: number, signed: boolean): [bigint, bigint] =>
  signed ? [-(2n ** BigInt(n - 1)), 2n ** BigInt(n - 1) - 1n] : [0n, 2n ** BigInt(n) - 1n];
const decimal = (columnKey: string, precision: number, scale: number): ExactColumn => ({
  columnKey,
  sqlType: `DECIMAL(${precision},${scale})`,
  scale,
  min: -(10n ** BigInt(precision) - 1n),
  max: 10n ** BigInt(precision) - 1n,
});
const integer = (columnKey: string, sqlType: string, [min, max]: [bigint, bigint]): ExactColumn => ({
  columnKey,
  sqlType,
  scale: 0,
  min,
  max,
});

export const EXACT_COLUMNS: ExactColumn[] = [
  integer('i32', 'INTEGER', bits(32, true)),
  integer('i64', 'BIGINT', bits(64, true)),
  integer('u64', 'UBIGINT', bits(64, false)),
  integer('i128', 'HUGEINT', bits(128, true)),
  integer('u128', 'UHUGEINT', bits(128, false)),
  decimal('d10_2', 10, 2),
  decimal('d20_6', 20, 6),
  decimal('d38_10', 38, 10),
  decimal('d38_0', 38, 0),
];

/** An exact decimal: `unscaled × 10^-scale`. */
export interface Exact {
  unscaled: bigint;
  scale: number;
}

export function text({ unscaled, scale }: Exact): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return `${negative ? '-' : ''}${body}`;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compareExact(a: Exact, b: Exact): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.unscaled * 10n ** BigInt(scale - a.scale);
  const y = b.unscaled * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether a cell (null = empty) passes the filter, by the spec's rules. */
export function passes(cell: Exact | null, operator: FilterOperator, value?: Exact, value2?: Exact): boolean {
  if (operator === 'Exists') return cell !== null;
  if (operator === 'Empty') return cell === null;
  // Negative operators keep empty cells; every other comparison with an empty cell is false.
  if (cell === null) return operator === 'NotEquals';
  const c = compareExact(cell, value!);
  switch (operator) {
    case 'Equals':
      return c === 0;
    case 'NotEquals':
      return c !== 0;
    case 'GreaterThan':
      return c > 0;
    case 'GreaterThanOrEquals':
      return c >= 0;
    case 'LessThan':
      return c < 0;
    case 'LessThanOrEquals':
      return c <= 0;
    case 'Between':
      return c >= 0 && compareExact(cell, value2!) <= 0;
    default:
      throw new Error(`No reference for ${operator}`);
  }
}

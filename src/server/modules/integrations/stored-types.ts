/**
 * When an append meets a table whose column has another type than the staged rows (the source
 * changed, a value did not fit this time, or the table was written before exact types), the
 * column takes a type that holds both exactly when one exists: the wider whole number, a decimal
 * with room for both, text. Otherwise the table keeps its type and the run log says a full
 * refresh stores the new one.
 */
import { formatOfDuckDbType, MAX_DECIMAL_DIGITS, type StorageFormat } from './connectors/formats';

/** Decimal digits of the largest value of a whole-number type. */
const INT_DIGITS: Record<number, number> = { 8: 3, 16: 5, 32: 10, 64: 19, 128: 39 };
const UINT_DIGITS: Record<number, number> = { 8: 3, 16: 5, 32: 10, 64: 20 };

/** Digits before and after the point a numeric format holds, or null for other formats. */
export function decimalRoom(format: StorageFormat): { intDigits: number; scale: number } | null {
  if (format.kind === 'decimal') return { intDigits: format.precision - format.scale, scale: format.scale };
  if (format.kind === 'int') {
    const digits = (format.unsigned ? UINT_DIGITS : INT_DIGITS)[format.bits] ?? 39;
    return { intDigits: digits, scale: 0 };
  }
  return null;
}

function sameFormat(a: StorageFormat, b: StorageFormat): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether every value of `inner` is a value of `outer`, unchanged. */
export function holds(outer: StorageFormat, inner: StorageFormat): boolean {
  if (sameFormat(outer, inner)) return true;
  if (outer.kind === 'text') return true; // nested values as their JSON (see staging.ts)
  // An exact decimal (typed once the data is known) holds every number as its exact text.
  if (outer.kind === 'exact-decimal')
    return decimalRoom(inner) !== null || ['float', 'double', 'exact-decimal'].includes(inner.kind);
  if (outer.kind === 'int' && inner.kind === 'int') {
    if (outer.unsigned) return inner.unsigned && inner.bits <= outer.bits;
    return inner.unsigned ? inner.bits < outer.bits : inner.bits <= outer.bits;
  }
  if (outer.kind === 'decimal') {
    const room = decimalRoom(inner);
    return room !== null && room.scale <= outer.scale && room.intDigits <= outer.precision - outer.scale;
  }
  if (outer.kind === 'double') {
    return inner.kind === 'float' || (inner.kind === 'int' && inner.bits <= 32);
  }
  if (outer.kind === 'float') return inner.kind === 'int' && inner.bits <= 16;
  // A date is the midnight starting it; the warehouse's zone is UTC, so a local time is that instant.
  if (outer.kind === 'timestamp' && outer.unit === 'us') return inner.kind === 'date';
  if (outer.kind === 'timestamptz') return inner.kind === 'date' || (inner.kind === 'timestamp' && inner.unit !== 'ns');
  // JSON holds lists and nested values as their JSON.
  if (outer.kind === 'json') return inner.kind === 'list';
  return false;
}

export type Reconciled =
  /** The table's type holds the staged values. */
  | { action: 'keep' }
  /** The table's column becomes `type`, which holds its values and the staged ones. */
  | { action: 'widen'; type: string }
  /** Both are numbers with room for `intDigits` + `scale` digits only in a wider decimal. */
  | { action: 'decimal'; intDigits: number; scale: number }
  /** No exact common type: the column becomes exact text (see swap-in.ts). */
  | { action: 'lossy' };

/** What the table's column (of type `existing`) does for staged values of type `staged`. */
export function reconcile(existing: string, staged: string): Reconciled {
  const outer = formatOfDuckDbType(existing);
  const inner = formatOfDuckDbType(staged);
  if (existing.toUpperCase() === staged.toUpperCase() || holds(outer, inner)) return { action: 'keep' };
  if (holds(inner, outer)) return { action: 'widen', type: staged };
  // Lists of different elements: JSON holds both, each list exact and still nested (not text).
  if (outer.kind === 'list' && inner.kind === 'list') return { action: 'widen', type: 'JSON' };
  const a = decimalRoom(outer);
  const b = decimalRoom(inner);
  if (a && b) {
    return { action: 'decimal', intDigits: Math.max(a.intDigits, b.intDigits), scale: Math.max(a.scale, b.scale) };
  }
  return { action: 'lossy' };
}

/** A decimal type for `intDigits` + `scale` digits, or null when DuckDB has none that wide. */
export function decimalType(intDigits: number, scale: number): string | null {
  if (intDigits + scale > MAX_DECIMAL_DIGITS) return null;
  return `DECIMAL(${MAX_DECIMAL_DIGITS},${scale})`;
}

/**
 * Join conditions between two Number columns of different exact SQL types. DuckDB compares them
 * in one type it picks itself, which is exact whenever a DECIMAL of 38 digits (or an integer type)
 * holds both; past that it converts one side and stops the query with a conversion error on a
 * large value (BIGINT against DECIMAL(38,20), HUGEINT against DECIMAL(20,2), UHUGEINT against a
 * signed type). Those pairs are compared here in a way that never fails: integers as BIGNUM
 * (exact, any size), anything else by the number's text for = and <> (exact) and as doubles to
 * order (approximate).
 */
import type { RelationColumn } from '../ir';
import type { CompareOp, Expr } from '../sql-ast';
import { MAX_DECIMAL_PRECISION, numericType, type ExactNumericType } from '../values/numeric-types';

type NumberSide = Pick<RelationColumn, 'sqlType'> & { expr: Expr };

/** Digits left of the point the type may need; Infinity for BIGNUM. */
function wholeDigits(type: ExactNumericType): number {
  if (type.min === null || type.max === null) return Infinity;
  const largest = -type.min > type.max ? -type.min : type.max;
  return largest.toString().length - type.scale;
}

const unsigned = (type: ExactNumericType): boolean => type.min !== null && type.min >= 0n;

/** Whether DuckDB's own comparison of the two types is exact and cannot fail. */
function nativelyExact(a: ExactNumericType, b: ExactNumericType): boolean {
  if (a.sqlType === b.sqlType) return true;
  if (a.scale === 0 && b.scale === 0) {
    if (a.sqlType === 'bignum' || b.sqlType === 'bignum') return false;
    // Every integer type but UHUGEINT fits a HUGEINT; UHUGEINT meets only unsigned types safely.
    const huge = a.sqlType === 'uhugeint' ? b : b.sqlType === 'uhugeint' ? a : null;
    return huge === null || unsigned(huge);
  }
  return Math.max(wholeDigits(a), wholeDigits(b)) + Math.max(a.scale, b.scale) <= MAX_DECIMAL_PRECISION;
}

/**
 * `left op right` for two exact Number columns DuckDB cannot compare safely, or null when the
 * native comparison is exact (same type, or a common type holds both) or a type is not known.
 */
export function exactNumberComparison(op: CompareOp, left: NumberSide, right: NumberSide): Expr | null {
  const a = numericType(left.sqlType);
  const b = numericType(right.sqlType);
  if (a?.kind !== 'exact' || b?.kind !== 'exact' || nativelyExact(a, b)) return null;
  if (a.scale === 0 && b.scale === 0) {
    const big = (expr: Expr): Expr => ({ kind: 'cast', expr, type: 'bignum' });
    return { kind: 'compare', op, left: big(left.expr), right: big(right.expr) };
  }
  if (op === '=' || op === '<>') {
    // One value has one text (no exponent, no trailing zeros), so equal texts are equal numbers.
    const text = (expr: Expr): Expr => ({ kind: 'text-of', expr, shape: 'number' });
    return { kind: 'compare', op, left: text(left.expr), right: text(right.expr) };
  }
  const double = (expr: Expr): Expr => ({ kind: 'cast', expr, type: 'double' });
  return { kind: 'compare', op, left: double(left.expr), right: double(right.expr) };
}

/** Whether `abs(left - right)` (a join tolerance) could fail on the two columns' types. */
export function needsDoubleDistance(left: NumberSide, right: NumberSide): boolean {
  const a = numericType(left.sqlType);
  const b = numericType(right.sqlType);
  return a?.kind === 'exact' && b?.kind === 'exact' && !nativelyExact(a, b);
}

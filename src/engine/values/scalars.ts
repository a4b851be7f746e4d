/** Numbers and booleans from filter values, which may arrive as JSON numbers and booleans or as text. */

// Plain decimal notation with an optional exponent; no hex, no thousands separators, no Infinity.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A finite number, or null. Exact integers are bound as BIGINT so a comparison with an integer
 * column keeps the column's type (and DuckDB's zone-map pruning); anything else as DOUBLE.
 */
export function parseNumberValue(value: string | number | boolean): { value: number; integer: boolean } | null {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && DECIMAL.test(value.trim())) number = Number(value.trim());
  else return null;
  if (!Number.isFinite(number)) return null;
  // -0 would bind as 0 but print as 0 too; normalising keeps the two ways of running identical.
  if (Object.is(number, -0)) number = 0;
  return { value: number, integer: Number.isSafeInteger(number) };
}

export function parseBooleanValue(value: string | number | boolean): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  return null;
}

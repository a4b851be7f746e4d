/**
 * Decimal numbers held exactly, as `unscaled × 10^-scale` with BigInt digits, so a value typed as
 * `9007199254740993` or `99999999999999.999999` reaches SQL with every digit: a JS number would
 * round both. Filters parse their values with this and bind them in the column's own type.
 */

export interface ExactNumber {
  /** The digits as one integer, with the sign. */
  unscaled: bigint;
  /** How many of those digits are after the decimal point; never negative, no trailing zeros beyond 0. */
  scale: number;
}

// Plain decimal notation with an optional exponent; no hex, no thousands separators, no Infinity.
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * More significant digits than any SQL number type holds (DuckDB's DECIMAL: 38, HUGEINT: 39), with
 * room to spare; a value past it is refused rather than parsed (BigInt of a huge text is slow).
 */
export const MAX_DIGITS = 400;

const TEN = 10n;

export const pow10 = (exponent: number): bigint => TEN ** BigInt(exponent);

/** `unscaled × 10^-scale` with trailing fraction zeros removed, so one value has one form (1.50 is 1.5). */
export function normalized(unscaled: bigint, scale: number): ExactNumber {
  while (scale > 0 && unscaled % TEN === 0n) {
    unscaled /= TEN;
    scale -= 1;
  }
  return { unscaled, scale: unscaled === 0n ? 0 : scale };
}

/**
 * A finite number from JSON (its shortest round-trip text, which is what the user typed for up to
 * 15 significant digits) or from text in plain or exponent notation; null for anything else.
 */
export function parseExactNumber(value: string | number): ExactNumber | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, sign, whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return null;
  // Beyond what a double holds, as the filters always refused (`1e400` is not a number).
  if (!Number.isFinite(Number(text))) return null;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits.length > MAX_DIGITS) return null;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  let scale = fraction.length - exponent;
  let unscaled = BigInt(digits === '' ? '0' : digits);
  if (scale < 0) {
    unscaled *= pow10(-scale);
    scale = 0;
  }
  if (scale > MAX_DIGITS * 4) return null;
  return normalized(sign === '-' ? -unscaled : unscaled, scale);
}

export function isWhole(value: ExactNumber): boolean {
  return value.scale === 0;
}

/** The value's digits at `scale` (which must be at least the value's own scale). */
export function unscaledAt(value: ExactNumber, scale: number): bigint {
  if (scale < value.scale) throw new Error(`Cannot widen ${value.scale} to ${scale}`);
  return value.unscaled * pow10(scale - value.scale);
}

/** The smallest multiple of 10^-scale at or above the value, as digits at that scale. */
export function ceilingAt(value: ExactNumber, scale: number): bigint {
  if (scale >= value.scale) return unscaledAt(value, scale);
  const divisor = pow10(value.scale - scale);
  const quotient = value.unscaled / divisor; // BigInt division truncates toward zero
  return value.unscaled > 0n && value.unscaled % divisor !== 0n ? quotient + 1n : quotient;
}

/** Plain decimal text, no exponent, no trailing zeros: what is bound and cast in SQL. */
export function exactText(value: ExactNumber): string {
  return scaledText(value.unscaled, value.scale);
}

/** `unscaled × 10^-scale` as plain decimal text. */
export function scaledText(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString();
  if (scale === 0) return `${negative ? '-' : ''}${digits}`;
  const padded = digits.padStart(scale + 1, '0');
  const text = `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
  return `${negative ? '-' : ''}${text}`;
}

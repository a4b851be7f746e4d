/**
 * Decimal numbers as text, exactly: spelled out without an exponent, measured (digits before and
 * after the point) and compared, without ever passing through a double.
 */

const NUMBER = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/** A sane bound on exponents: beyond it a value is not spelled out (it could not be stored anyway). */
const MAX_EXPONENT = 1000;

/**
 * The plain decimal spelling of a number's text (`1.5e3` → `1500`, `-.5` → `-0.5`): sign, digits,
 * and the fraction digits the text has (trailing zeros kept: they are the source's scale). Null
 * when the text is not a finite decimal number.
 */
export function plainDecimal(text: string): string | null {
  const match = NUMBER.exec(text);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return null;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return null;
  let digits = whole + fraction;
  let point = whole.length + exponent;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const intPart = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
  const fracPart = digits.slice(point);
  const negative = sign === '-' && /[1-9]/.test(digits);
  return `${negative ? '-' : ''}${intPart}${fracPart === '' ? '' : `.${fracPart}`}`;
}

/** Digits before the point (without leading zeros) and after it, of a plain decimal. */
export function decimalShape(plain: string): { intDigits: number; scale: number } {
  const unsigned = plain.startsWith('-') ? plain.slice(1) : plain;
  const dot = unsigned.indexOf('.');
  const intPart = (dot < 0 ? unsigned : unsigned.slice(0, dot)).replace(/^0+/, '');
  return { intDigits: intPart.length, scale: dot < 0 ? 0 : unsigned.length - dot - 1 };
}

/** The same plain decimal without trailing fraction zeros: one spelling per value. */
export function normalDecimal(plain: string): string {
  if (!plain.includes('.')) return plain === '-0' ? '0' : plain;
  const trimmed = plain.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

/** Whether a plain decimal fits DECIMAL(precision, scale) without rounding. */
export function fitsDecimal(plain: string, precision: number, scale: number): boolean {
  const shape = decimalShape(normalDecimal(plain));
  return shape.scale <= scale && shape.intDigits <= precision - scale;
}

/** Whether a double holds exactly the value the text spells (as its shortest spelling). */
export function fitsDouble(text: string): boolean {
  const plain = plainDecimal(text);
  if (plain === null) return false;
  const value = Number(text);
  if (!Number.isFinite(value)) return false;
  const back = plainDecimal(String(value));
  return back !== null && normalDecimal(back) === normalDecimal(plain);
}

/** -1, 0 or 1 for two plain decimals, exactly. */
export function compareDecimals(a: string, b: string): number {
  const na = a.startsWith('-') && /[1-9]/.test(a);
  const nb = b.startsWith('-') && /[1-9]/.test(b);
  if (na !== nb) return na ? -1 : 1;
  const magnitude = compareMagnitudes(a.replace(/^-/, ''), b.replace(/^-/, ''));
  return na ? -magnitude : magnitude;
}

function compareMagnitudes(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  const aInt = ai.replace(/^0+/, '');
  const bInt = bi.replace(/^0+/, '');
  if (aInt.length !== bInt.length) return aInt.length < bInt.length ? -1 : 1;
  if (aInt !== bInt) return aInt < bInt ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const aFrac = af.padEnd(width, '0');
  const bFrac = bf.padEnd(width, '0');
  return aFrac === bFrac ? 0 : aFrac < bFrac ? -1 : 1;
}

/** Whether a plain decimal is a whole number within [min, max]. */
export function isIntegerWithin(plain: string, min: bigint, max: bigint): boolean {
  const normal = normalDecimal(plain);
  if (normal.includes('.')) return false;
  const value = BigInt(normal);
  return value >= min && value <= max;
}

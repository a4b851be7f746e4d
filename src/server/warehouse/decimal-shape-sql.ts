/**
 * The shape of plain decimal text (`-123.4500`) in SQL, and the exact DECIMAL holding it: shared by
 * every place that types number text by its data (a sync's exact-decimal columns, a CSV import's
 * long numbers, a static column changed to Number).
 */

/** The digits a DECIMAL holds at most, and those a 64-bit one does (fast to parse and compute with). */
export const MAX_DECIMAL_DIGITS = 38;
const INT64_DECIMAL_DIGITS = 18;

/** SQL: the scale that carries value; trailing zeros of a fraction (79.1900000000) say nothing. */
export const decimalScaleSql = (v: string): string =>
  `CASE WHEN strpos(${v}, '.') > 0 THEN length(rtrim(${v}, '0')) - strpos(${v}, '.') ELSE 0 END`;

/**
 * SQL: digits before the point, a minus sign not counted. A leading 0 ("0.5") counts: a digit of
 * room to spare, never one too few.
 */
export const decimalIntDigitsSql = (v: string): string =>
  `CASE WHEN strpos(${v}, '.') > 0 THEN strpos(${v}, '.') - 1 ELSE length(${v}) END - ` +
  `CASE WHEN starts_with(${v}, '-') THEN 1 ELSE 0 END`;

/** The DECIMAL holding values of these digits: 18 wide when that holds them, else 38; null past 38. */
export function exactDecimalType(intDigits: number, scale: number): { precision: number; scale: number } | null {
  if (intDigits + scale > MAX_DECIMAL_DIGITS) return null;
  return { precision: intDigits + scale <= INT64_DECIMAL_DIGITS ? INT64_DECIMAL_DIGITS : MAX_DECIMAL_DIGITS, scale };
}

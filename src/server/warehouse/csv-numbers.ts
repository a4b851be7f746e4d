/**
 * Exact numbers from a CSV. DuckDB's sniffer reads a column of decimal numbers as DOUBLE, which
 * silently changes what a double cannot hold: 99999999999999.999999 reads as 100000000000000,
 * 9007199254740993 as 9007199254740992, 1.5e400 as infinity. Such columns are read as text, and
 * each is then stored as:
 * - DOUBLE when every value comes back from a double unchanged: what most files hold, and what
 *   they were stored as before. Checked by a cheap bound first (at most 15 characters and no
 *   exponent, so at most 15 digits), else value by value (finite, not rounded to zero, at most 15
 *   significant digits);
 * - else DECIMAL(18 or 38, s), s the largest scale read, when every value is a plain decimal of at
 *   most 38 digits;
 * - else Text, keeping every value as it was written, with a note saying why.
 * A value that is no number at all (a later "n/a") makes the column Text, as DuckDB's own reading
 * of every row would.
 */
import { decimalIntDigitsSql, decimalScaleSql, exactDecimalType, MAX_DECIMAL_DIGITS } from './decimal-shape-sql';
import { isWholeNumberType } from './column-types';
import { asText, castTo, type TextReading } from './csv-text-reading';
import { quoteIdentifier } from './quote';
import type { WarehouseSession } from './types';

/** Digits that always come back from a double as written (DBL_DIG). */
const DOUBLE_DIGITS = 15;

/** Sniffed types read as text first and decided here. */
export const isApproximateType = (sqlType: string): boolean => /^(DOUBLE|FLOAT|REAL)$/i.test(sqlType);

export type NumberReading = TextReading;

const asDouble = castTo('DOUBLE');

const SPECIALS = ['inf', '+inf', '-inf', 'infinity', '+infinity', '-infinity', 'nan', '+nan', '-nan']
  .map((s) => `'${s}'`)
  .join(', ');

/** SQL: the double `d` read from the text `v` gives it back as written (see the file's comment). */
export function doubleKeeps(v: string, d: string): string {
  const mantissa = `split_part(lower(${v}), 'e', 1)`;
  // Zeros at either end of the digits are not significant.
  const significant = `length(rtrim(ltrim(regexp_replace(${mantissa}, '[^0-9]', '', 'g'), '0'), '0'))`;
  return (
    `((isfinite(${d}) OR lower(${v}) IN (${SPECIALS})) AND NOT (${d} = 0 AND regexp_matches(${mantissa}, '[1-9]')) ` +
    `AND ${significant} <= ${DOUBLE_DIGITS})`
  );
}

/** What the careful look finds in a column of number text. */
export interface NumberStats {
  /** Values that are no number at all. */
  notNumbers: number;
  /** Numbers a double would change. */
  changed: number;
  /** The DECIMAL type holding every number exactly, or null (one has an exponent, or over 38 digits). */
  decimal: string | null;
  /** Numbers not written as plain decimals (an exponent, `.5`, `inf`). */
  notPlain: number;
  /** SQL: the text `v` is a number a double gives back unchanged. */
  keeps: (v: string) => string;
}

/** The careful look at the text values `value` (SQL) of `table`, in one pass. */
export async function numberStats(session: WarehouseSession, table: string, value: string): Promise<NumberStats> {
  const scale = decimalScaleSql('v');
  const intDigits = decimalIntDigitsSql('v');
  const [stats] = await session.all({
    sql:
      `SELECT count(*) FILTER (WHERE v IS NOT NULL AND d IS NULL)::DOUBLE AS not_numbers, ` +
      `count(*) FILTER (WHERE d IS NOT NULL AND NOT plain)::DOUBLE AS not_plain, ` +
      `coalesce(max(${scale}) FILTER (WHERE plain), 0)::DOUBLE AS scale, ` +
      `coalesce(max(${intDigits}) FILTER (WHERE plain), 0)::DOUBLE AS int_digits, ` +
      `count(*) FILTER (WHERE d IS NOT NULL AND NOT ${doubleKeeps('v', 'd')})::DOUBLE AS changed ` +
      `FROM (SELECT v, TRY_CAST(v AS DOUBLE) AS d, regexp_full_match(v, '[+-]?[0-9]+(\\.[0-9]+)?') AS plain ` +
      `FROM (SELECT trim(${value}) AS v FROM ${table}))`,
    parameters: [],
  });
  const exact = exactDecimalType(Number(stats?.int_digits ?? 0), Number(stats?.scale ?? 0));
  const decimal = Number(stats?.not_plain ?? 0) === 0 && exact ? `DECIMAL(${exact.precision},${exact.scale})` : null;
  return {
    notNumbers: Number(stats?.not_numbers ?? 0),
    changed: Number(stats?.changed ?? 0),
    decimal,
    notPlain: Number(stats?.not_plain ?? 0),
    keeps: (v) => doubleKeeps(`trim(${v})`, `TRY_CAST(trim(${v}) AS DOUBLE)`),
  };
}

/** The careful reading of one column whose values are long or written with exponents. */
async function carefulReading(session: WarehouseSession, table: string, name: string): Promise<NumberReading> {
  const stats = await numberStats(session, table, quoteIdentifier(name));
  if (stats.notNumbers > 0) return asText;
  if (stats.changed === 0) return asDouble;
  const { decimal } = stats;
  if (decimal) return { sqlType: decimal, expression: (c) => `CAST(trim(${c}) AS ${decimal})`, note: null };
  const changed = stats.changed === 1 ? '1 value' : `${stats.changed} values`;
  // Only plain decimals are read as DECIMAL: say so when that is what stands in the way.
  const why =
    stats.notPlain > 0
      ? `as a double, and not every value is a plain decimal (one is written with an exponent, such as 1.5e3)`
      : `as a number (more than ${MAX_DECIMAL_DIGITS} digits, or beyond the range of a number)`;
  return { ...asText, note: `${changed} would change ${why}, so it was kept as Text, every value as written.` };
}

/** Sniffed types whose columns are read as text and typed here (the file's comment). */
export const isNumberSniff = (sqlType: string): boolean => isApproximateType(sqlType) || isWholeNumberType(sqlType);

/**
 * SQL: the text is written as no number is, though DuckDB's reading takes it for one: a leading
 * zero (`01234`, a code or a postcode), a plus sign, a digit separator (`1_000`). DuckDB's sniffer
 * keeps such a column as text when it sees one; this sees every row.
 */
// The anchored expression and a plain search for _ cost half of one unanchored expression.
export const numberLikeText = (c: string) =>
  `(regexp_matches(${c}, '^\\s*(\\+|-?0[0-9xXbBoO])') OR contains(${c}, '_'))`;

export interface SniffedNumbers {
  /** The column's name in the table read. */
  name: string;
  /** The type DuckDB's sniffer gave it (DOUBLE, BIGINT, …). */
  sqlType: string;
}

/**
 * How to store each of `columns` (text columns of `table` that DuckDB sniffed as numbers): one pass
 * over all of them for the common case, and one more per column that needs a closer look. A whole
 * number column keeps its sniffed type when every value is written as that type writes it back (which
 * rules out a point, an exponent, a leading zero or plus sign, a separator and a value out of range
 * in one test, cheaper than testing each).
 */
export async function readNumbers(
  session: WarehouseSession,
  table: string,
  columns: readonly SniffedNumbers[],
): Promise<Map<string, NumberReading>> {
  const readings = new Map<string, NumberReading>();
  if (columns.length === 0) return readings;
  const cells = columns.map(({ name, sqlType }, i) => {
    const c = quoteIdentifier(name);
    return isWholeNumberType(sqlType)
      ? `count(*) FILTER (WHERE TRY_CAST(${c} AS ${sqlType.toUpperCase()})::VARCHAR IS DISTINCT FROM ${c})::DOUBLE AS w${i}`
      : shapeCells(c, `${i}`);
  });
  const [first] = await session.all({ sql: `SELECT ${cells.join(', ')} FROM ${table}`, parameters: [] });
  for (const [i, { name, sqlType }] of columns.entries()) {
    if (isWholeNumberType(sqlType)) {
      const type = sqlType.toUpperCase();
      if (Number(first?.[`w${i}`] ?? 0) === 0) {
        readings.set(name, castTo(type));
        continue;
      }
      const c = quoteIdentifier(name);
      // Not all written as the type writes them: the shape says why, as for approximate numbers.
      const misread =
        `count(*) FILTER (WHERE ${c} IS NOT NULL AND (TRY_CAST(${c} AS ${type}) IS NULL ` +
        `OR contains(${c}, '.') OR contains(${c}, 'e') OR contains(${c}, 'E')))::DOUBLE AS w`;
      const [shape] = await session.all({
        sql: `SELECT ${shapeCells(c, '')}, ${misread} FROM ${table}`,
        parameters: [],
      });
      readings.set(name, await readingOfShape(session, table, name, shape, '', type));
    } else {
      readings.set(name, await readingOfShape(session, table, name, first, `${i}`, null));
    }
  }
  return readings;
}

/** SQL: the longest value, whether one has an exponent, and one written as no number is (`t`). */
function shapeCells(c: string, suffix: string): string {
  const exponent = `(contains(${c}, 'e') OR contains(${c}, 'E'))`;
  return (
    `coalesce(max(length(${c})), 0)::DOUBLE AS l${suffix}, coalesce(bool_or(${exponent}), false) AS e${suffix}, ` +
    `min(${c}) FILTER (WHERE ${numberLikeText(c)}) AS t${suffix}`
  );
}

/**
 * The reading of a column from its shape: of approximate numbers, or of whole numbers (`wholeType`)
 * not all written as that type writes them, which keep it when only padding or a sign of zero differs.
 */
async function readingOfShape(
  session: WarehouseSession,
  table: string,
  name: string,
  shape: Record<string, unknown> | undefined,
  suffix: string,
  wholeType: string | null,
): Promise<NumberReading> {
  const example = shape?.[`t${suffix}`];
  if (typeof example === 'string') return { ...asText, note: textNote(example) };
  if (wholeType !== null) {
    return Number(shape?.w ?? 0) === 0 ? castTo(wholeType) : carefulReading(session, table, name);
  }
  const fits = Number(shape?.[`l${suffix}`] ?? 0) <= DOUBLE_DIGITS && shape?.[`e${suffix}`] !== true;
  return fits ? asDouble : carefulReading(session, table, name);
}

const textNote = (example: string) =>
  `Values such as "${example.trim().slice(0, 40)}" are written with a leading zero, a plus sign or a digit separator, ` +
  'which a number would drop, so it was kept as Text, every value as written.';

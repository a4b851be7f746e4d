/**
 * Text read as a value of a typed column, exactly or not at all. A file appended to a table, or
 * imported again over it, may hold a column the import kept as text (`007` among numbers, a date
 * with a time, an offset and nanoseconds together) where the table's column has a type. DuckDB's
 * cast would change such values without a word: `007` is 7, `0.125` in DECIMAL(18,2) is 0.13,
 * `2024-01-05 10:30` as a DATE loses its time, `…10:00:00+02:00` as a TIMESTAMP keeps the wall time
 * and drops the offset, nanoseconds are cut, `0044-03-15 BC` is the year 44 AD. Each value is read
 * here by the rules a fresh import types a column by (csv-numbers.ts, csv-times.ts), and is NULL
 * when the type would not hold it as written.
 */
import { columnTypeFromName, isWholeNumberType } from './column-types';
import { doubleKeeps, numberLikeText } from './csv-numbers';
import { finerThanMicros } from './csv-times';
import { eraText } from './era-text';
import { sqlTypeText } from './sql-type-text';

/** Boolean spellings DuckDB's CSV sniffer reads as BOOLEAN (`Y`, `1` and `on` it does not). */
const TRUE_WORDS = "('true', 't', 'yes')";
const FALSE_WORDS = "('false', 'f', 'no')";

/** SQL: an ISO date at the start of the text (`2024-01-05`, `-0043-03-15`), as era-text.ts spells it. */
const isoDateStart = (t: string) => `regexp_matches(${t}, '^-?[0-9]{4}-[0-9]{2}-[0-9]{2}')`;

/**
 * SQL: the value of the text `v` (VARCHAR) in the DuckDB type `sqlType` (a type name as the catalog
 * prints it), or NULL when the text is no value of that type as written.
 */
export function exactCastFromText(v: string, sqlType: string): string {
  const type = sqlType.toUpperCase();
  const when = (fits: string, value: string) => `CASE WHEN ${fits} THEN ${value} END`;
  if (type === 'VARCHAR') return v;
  if (type === 'BOOLEAN') {
    return `CASE WHEN lower(${v}) IN ${TRUE_WORDS} THEN true WHEN lower(${v}) IN ${FALSE_WORDS} THEN false END`;
  }
  const t = `trim(${v})`;
  if (isWholeNumberType(type)) {
    // Written as the type writes it back: no point, exponent, leading zero, plus sign or separator.
    const read = `TRY_CAST(${t} AS ${type})`;
    return when(`CAST(${read} AS VARCHAR) = ${t}`, read);
  }
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(type);
  if (decimal) {
    // A plain decimal with no more digits after the point than the type keeps (zeros at the end
    // say nothing): the cast would round the rest.
    const scale = Number(decimal[2]);
    const plain = `regexp_full_match(${t}, '-?([1-9][0-9]*|0)?(\\.[0-9]*)?') AND regexp_matches(${t}, '[0-9]')`;
    const digits = `length(rtrim(split_part(${t}, '.', 2), '0')) <= ${scale}`;
    return when(`${plain} AND ${digits}`, `TRY_CAST(${t} AS ${type})`);
  }
  if (type === 'DOUBLE') {
    const read = `TRY_CAST(${t} AS DOUBLE)`;
    return when(`NOT ${numberLikeText(v)} AND ${doubleKeeps(t, read)}`, read);
  }
  // Dates and date-times: PostgreSQL's `… BC` read in ISO years (era-text.ts), as syncs read it.
  const e = eraText(v);
  const instant = `TRY_CAST(${e} AS TIMESTAMPTZ)`;
  if (type === 'DATE') {
    return when(`regexp_full_match(${e}, '-?[0-9]{4}-[0-9]{2}-[0-9]{2}')`, `TRY_CAST(${e} AS DATE)`);
  }
  // An offset is applied (none is UTC, the warehouse's zone): DuckDB's cast to TIMESTAMP drops it.
  if (type === 'TIMESTAMP' || type === 'TIMESTAMP WITH TIME ZONE' || type === 'TIMESTAMPTZ') {
    const value = type === 'TIMESTAMP' ? `CAST(${instant} AS TIMESTAMP)` : instant;
    return when(`${isoDateStart(e)} AND NOT ${finerThanMicros(e)}`, value);
  }
  if (type === 'TIMESTAMP_NS') {
    // Nanoseconds are held only without an offset (an instant holds microseconds).
    const naive = `TRY_CAST(${e} AS TIMESTAMP)`;
    const zoned = `${instant} IS DISTINCT FROM CAST(${naive} AS TIMESTAMPTZ)`;
    return when(`${isoDateStart(e)} AND NOT (${zoned})`, `TRY_CAST(${e} AS TIMESTAMP_NS)`);
  }
  // Any other type: the text as the type writes it back.
  const read = `TRY_CAST(${v} AS ${type})`;
  return when(`CAST(${read} AS VARCHAR) = ${v}`, read);
}

/**
 * SQL: `value`, of the DuckDB type `from`, as a value of the type `to`; NULL when it would not be
 * the same value there. Text is read by the rules above; a typed value must convert and back
 * unchanged (1.5 into a whole-number column is 2, a date and time into a DATE loses its time).
 */
export function exactConversion(value: string, from: string, to: string): string {
  if (columnTypeFromName(from) === 'Text') {
    const text = from.toUpperCase() === 'VARCHAR' ? value : `CAST(${value} AS VARCHAR)`;
    return exactCastFromText(text, sqlTypeText(to));
  }
  const converted = `TRY_CAST(${value} AS ${sqlTypeText(to)})`;
  return `CASE WHEN TRY_CAST(${converted} AS ${sqlTypeText(from)}) IS NOT DISTINCT FROM ${value} THEN ${converted} END`;
}

/**
 * Record values (JSON from an API, an Airbyte source, a webhook, a JSON file) as the staging file
 * holds them for their column's storage format: what DuckDB's JSON reader turns into exactly that
 * value, or MISFIT when the format cannot hold the value without changing it (a fraction in a
 * whole-number column, 20 digits in a BIGINT, a time zone in a timestamp without one, ...). DuckDB
 * would round or cut those silently, so they are caught here, before it sees them.
 *
 * Numbers travel as text wherever a double could change them (ExactNumbers, decimals); objects
 * and arrays as their exact JSON text.
 */
import { exactJsonText, ExactNumber } from '../../../exact-values/json';
import {
  fitsDecimal,
  fitsDouble,
  isIntegerWithin,
  normalDecimal,
  plainDecimal,
} from '../../../exact-values/decimal-text';
import { duckDbType, type StorageFormat } from '../connectors/formats';
import { FRACTION_DIGITS_OF } from '../../../warehouse/column-types';

export const MISFIT: unique symbol = Symbol('misfit');
export type StagedValue = string | number | boolean | null;
export type Converter = (value: unknown) => StagedValue | typeof MISFIT;

/**
 * A number written as a string, in the one spelling its stored number prints back as: no sign on
 * zero, no leading zeros, no exponent, no spaces. Any other string ('00501', '1e2', ' 7 ', '+5')
 * is text the number would change, so it does not fit a number column (the column widens to text).
 */
const CANONICAL_NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const NEGATIVE_ZERO_TEXT = /^-0(\.0+)?$/;
const isCanonicalNumberText = (text: string) => CANONICAL_NUMBER_TEXT.test(text) && !NEGATIVE_ZERO_TEXT.test(text);

/** The exact text of a number-like value, or null when it is not one (or a string spelled otherwise). */
function numberLike(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (value instanceof ExactNumber) return value.text;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return isCanonicalNumberText(value) ? value : null;
  return null;
}

function intBounds(bits: number, unsigned: boolean): [bigint, bigint] {
  if (unsigned) return [0n, (1n << BigInt(bits)) - 1n];
  const half = 1n << BigInt(bits - 1);
  return [-half, half - 1n];
}

function intConverter(bits: number, unsigned: boolean): Converter {
  const [min, max] = intBounds(bits, unsigned);
  const minNumber = Number(min);
  const maxNumber = Number(max);
  return (value) => {
    if (value === null || value === undefined) return null;
    if (typeof value === 'number' && Number.isSafeInteger(value)) {
      return value >= minNumber && value <= maxNumber ? value : MISFIT;
    }
    const text = numberLike(value);
    const plain = text === null ? null : plainDecimal(text);
    return plain !== null && isIntegerWithin(plain, min, max) ? normalDecimal(plain) : MISFIT;
  };
}

function decimalConverter(fits: (plain: string) => boolean): Converter {
  return (value) => {
    if (value === null || value === undefined) return null;
    const text = numberLike(value);
    const plain = text === null ? null : plainDecimal(text);
    return plain !== null && fits(plain) ? plain : MISFIT;
  };
}

/** The words for a double that is no number, as DuckDB and JavaScript print them. */
const FLOAT_WORDS = /^-?(nan|inf|infinity)$/i;

/**
 * Numbers go to the batch as JSON numbers (read_json reads them into the same double): a string
 * would be parsed by DuckDB, which reads ' 7 ' as 7 and refuses '7 apples' with no column named.
 * A string fits only when it is the double's own spelling (or a word like NaN).
 */
const floatConverter: Converter = (value) => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value; // JSON.stringify writes it back as the same double
  if (typeof value === 'string') {
    if (FLOAT_WORDS.test(value)) return value;
    return String(Number(value)) === value && Number.isFinite(Number(value)) ? Number(value) : MISFIT;
  }
  const text = numberLike(value);
  return text !== null && fitsDouble(text) ? Number(text) : MISFIT;
};

const booleanConverter: Converter = (value) => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  return value === 'true' || value === 'false' ? value : MISFIT;
};

/** Any value as text: scalars as written, objects and arrays as their exact JSON. */
export const textConverter: Converter = (value) => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof ExactNumber) return value.text;
  if (value instanceof Date) return value.toISOString();
  return exactJsonText(value);
};

const stringConverter: Converter = (value) => {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : MISFIT;
};

const DATE_TEXT = /^(-?\d{4,}-\d{2}-\d{2}|-?infinity)$/i;

const dateConverter: Converter = (value) => {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' && DATE_TEXT.test(value) ? value : MISFIT;
};

/** A time zone after a time of day: UTC may be dropped, any other zone would be dropped silently. */
const ZONE_AFTER_TIME = /(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(z|[+-]\d{2}(?::?\d{2})?)\s*$/i;
const UTC_ZONE = /^(z|[+-]00(:?00)?)$/i;

/** The digits after the second of a time of day, as written, up to the last that is not zero. */
const FRACTION = /\d:\d{2}\.(\d*[1-9])/;
const fractionFits = (text: string, digits: number) => (FRACTION.exec(text)?.[1]?.length ?? 0) <= digits;

/**
 * An ISO 8601 date and time (or a date: its midnight), as written: DuckDB also reads 'epoch' as
 * 1970-01-01, ' 2024-01-01 ' without its spaces and zone names by their rules, which would store
 * another text than the source's as an instant. Anything else does not fit (the column widens).
 */
const DATE_TIME_TEXT =
  /^(-?\d{4,}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?: ?(?:Z|[+-]\d{2}(?::?\d{2})?))?|-?infinity)$/;

/** A time without a zone, to as many digits after the second as its type (`digits`) holds. */
function localTimestampConverter(digits: number): Converter {
  return (value) => {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'string' || !DATE_TIME_TEXT.test(value) || !fractionFits(value, digits)) return MISFIT;
    const zoned = ZONE_AFTER_TIME.exec(value);
    if (!zoned) return value;
    if (!UTC_ZONE.test(zoned[2] as string)) return MISFIT;
    return value.slice(0, zoned.index) + (zoned[1] as string);
  };
}

/** An instant DuckDB parses (or refuses, see staging.ts); it holds microseconds, so finer digits do not fit. */
const instantConverter: Converter = (value) => {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' &&
    DATE_TIME_TEXT.test(value) &&
    fractionFits(value, FRACTION_DIGITS_OF['TIMESTAMP WITH TIME ZONE'] ?? 6)
    ? value
    : MISFIT;
};

const jsonConverter: Converter = (value) => (value === null || value === undefined ? null : exactJsonText(value));

/** An array or object: what a list of text would hold only as its JSON text, silently. */
const isNested = (value: unknown) =>
  value !== null && typeof value === 'object' && !(value instanceof ExactNumber) && !(value instanceof Date);

function listConverter(element: StorageFormat): Converter {
  const convert = converterFor(element);
  return (value) => {
    if (value === null || value === undefined) return null;
    if (!Array.isArray(value)) return MISFIT;
    const items: StagedValue[] = [];
    for (const item of value as unknown[]) {
      // A nested array or object does not fit a list of text: the column becomes JSON (widening.ts).
      if (element.kind === 'text' && isNested(item)) return MISFIT;
      const converted = convert(item);
      if (converted === MISFIT) return MISFIT;
      items.push(converted);
    }
    return JSON.stringify(items);
  };
}

/** How a value of the format is written into a staging batch. */
export function converterFor(format: StorageFormat): Converter {
  switch (format.kind) {
    case 'int':
      return intConverter(format.bits, format.unsigned);
    case 'decimal':
      return decimalConverter((plain) => fitsDecimal(plain, format.precision, format.scale));
    case 'exact-decimal':
      return decimalConverter(() => true);
    case 'float':
    case 'double':
      return floatConverter;
    case 'boolean':
      return booleanConverter;
    case 'text':
      return textConverter;
    case 'date':
      return dateConverter;
    case 'timestamp':
      return localTimestampConverter(FRACTION_DIGITS_OF[duckDbType(format)] ?? 6);
    case 'timestamptz':
      return instantConverter;
    case 'json':
      return jsonConverter;
    case 'list':
      return listConverter(format.element);
    default:
      // time, interval, uuid, bytes: text DuckDB parses (or refuses, see staging.ts).
      return stringConverter;
  }
}

/**
 * The SQL that types staged values, per storage format: from record batches (JSON read by
 * read_json, see record-values.ts), from CSV text and from typed files (Parquet). Each cast comes
 * with a `fits` test, true when the value converts without change, which finds the values (and
 * columns) that do not fit when a load fails.
 *
 * CSV text is either canonical (a database's own output, e.g. PostgreSQL's COPY: every value is
 * its type's exact text) or sniffed (a user's file, typed from a sample): sniffed text is guarded
 * where DuckDB's casts would round or cut silently ('1.5' as BIGINT is 2, '2024-01-01 10:00' as
 * DATE drops the time, an offset on a TIMESTAMP without zone is ignored, nanoseconds are cut to
 * microseconds, and `0044-03-15 BC` is read as the year 44 AD).
 */
import { duckDbType, type StorageFormat } from '../connectors/formats';
import { FRACTION_DIGITS_OF } from '../../../warehouse/column-types';
import { eraText } from '../../../warehouse/era-text';
import { quoteString } from '../../../warehouse/quote';

/** The type read_json reads a batch column as (record-values.ts writes what it reads exactly). */
export function batchType(format: StorageFormat): string {
  switch (format.kind) {
    case 'json':
    case 'list':
    case 'bytes':
    case 'exact-decimal':
      return 'VARCHAR';
    case 'decimal':
      // Wide decimals are read as text and cast the fast way (decimalFromText).
      return format.precision > INT64_DECIMAL_DIGITS ? 'VARCHAR' : duckDbType(format);
    default:
      return duckDbType(format);
  }
}

/** The widest decimal DuckDB keeps in 64 bits: text parses into it about a hundred times faster. */
const INT64_DECIMAL_DIGITS = 18;

/**
 * Exact decimal text as DECIMAL(p,s). DuckDB parses text into a decimal wider than 18 digits (a
 * 128-bit one) slowly, about 5 µs a value: a value that fits 18 digits is parsed into one of 64
 * bits and widened (exact), and only the others take the slow way.
 */
export function decimalFromText(ref: string, precision: number, scale: number): string {
  const type = `DECIMAL(${precision},${scale})`;
  if (precision <= INT64_DECIMAL_DIGITS) return `CAST(${ref} AS ${type})`;
  if (scale > INT64_DECIMAL_DIGITS) return `CAST(${ref} AS ${type})`;
  return `CAST(coalesce(TRY_CAST(${ref} AS DECIMAL(${INT64_DECIMAL_DIGITS},${scale})), CAST(${ref} AS ${type})) AS ${type})`;
}

/** The staged value of a batch column read as `batchType`. */
export function fromBatch(format: StorageFormat, ref: string): string {
  switch (format.kind) {
    case 'json':
      return `CAST(${ref} AS JSON)`;
    case 'list':
      return `CAST(CAST(${ref} AS JSON) AS ${duckDbType(format)})`;
    case 'bytes':
      return `from_hex(${ref})`;
    case 'decimal':
      return format.precision > INT64_DECIMAL_DIGITS ? decimalFromText(ref, format.precision, format.scale) : ref;
    default:
      return ref;
  }
}

export interface TextCast {
  /** The typed value; raises an error for a value that does not fit. */
  value: string;
  /** True when the value is NULL or converts without change. */
  fits: string;
}

export interface SniffedFormats {
  date: string | null;
  timestamp: string | null;
}

const guarded = (ref: string, guard: string, cast: string, what: string): TextCast => ({
  value: `CASE WHEN ${ref} IS NULL THEN NULL WHEN ${guard} THEN ${cast} ELSE error(${quoteString(`not ${what}: `)} || ${ref}) END`,
  fits: `(${ref} IS NULL OR ((${guard}) AND TRY(${cast}) IS NOT NULL))`,
});

const plain = (ref: string, cast: string): TextCast => ({
  value: cast,
  fits: `(${ref} IS NULL OR TRY(${cast}) IS NOT NULL)`,
});

const WHOLE = `'\\s*[+-]?[0-9]+\\s*'`;
const DECIMAL = `'\\s*[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)\\s*'`;
const ZONED_TIME = `'[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?\\s*(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)\\s*$'`;
const UTC_TIME = `'[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?\\s*(Z|z|[+-]00(:?00)?)\\s*$'`;
/** A timestamp unit's name, for the message of a value with finer digits. */
const UNIT_NAMES = { s: 'second', ms: 'millisecond', us: 'microsecond', ns: 'nanosecond' } as const;

/** The typed value of CSV text `ref`; `canonical` text is cast as it is. */
export function fromText(format: StorageFormat, ref: string, canonical: boolean, sniffed?: SniffedFormats): TextCast {
  const type = duckDbType(format);
  const cast = `CAST(${ref} AS ${type})`;
  switch (format.kind) {
    case 'text':
    case 'exact-decimal':
      return { value: ref, fits: 'true' };
    case 'bytes':
      return plain(ref, `from_hex(${ref})`);
    case 'json':
      return plain(ref, `CAST(${ref} AS JSON)`);
    case 'list':
      return listFromText(format.element, ref, type);
    case 'int':
      return canonical ? plain(ref, cast) : guarded(ref, `regexp_full_match(${ref}, ${WHOLE})`, cast, 'a whole number');
    case 'decimal': {
      const decimal = decimalFromText(ref, format.precision, format.scale);
      if (canonical) return plain(ref, decimal);
      const scaleFits = `length(rtrim(split_part(trim(${ref}), '.', 2), '0')) <= ${format.scale}`;
      return guarded(ref, `regexp_full_match(${ref}, ${DECIMAL}) AND ${scaleFits}`, decimal, 'a decimal of this scale');
    }
    case 'date': {
      if (canonical) return plain(ref, eraAware(ref, type));
      if (sniffed?.date) return plain(ref, `CAST(strptime(${ref}, ${quoteString(sniffed.date)}) AS DATE)`);
      return guarded(ref, `NOT contains(${ref}, ':')`, eraAware(ref, type), 'a date without a time');
    }
    case 'timestamp': {
      if (canonical) return plain(ref, eraAware(ref, type));
      if (sniffed?.timestamp) return plain(ref, `CAST(strptime(${ref}, ${quoteString(sniffed.timestamp)}) AS ${type})`);
      const unzoned = `(NOT regexp_matches(${ref}, ${ZONED_TIME}) OR regexp_matches(${ref}, ${UTC_TIME}))`;
      // Digits after the second past the type's unit would be cut.
      const finer = `regexp_matches(${ref}, '[0-9]:[0-9]{2}\\.[0-9]{${FRACTION_DIGITS_OF[type] ?? 6}}[0-9]*[1-9]')`;
      const guard = `${unzoned} AND NOT ${finer}`;
      return guarded(
        ref,
        guard,
        eraAware(ref, type),
        `a date and time without a time zone, to the ${UNIT_NAMES[format.unit]}`,
      );
    }
    case 'timestamptz':
      return plain(ref, canonical ? eraAware(ref, type) : cast);
    default:
      return plain(ref, cast);
  }
}

/**
 * A JSON array as a list. DuckDB casts a nested array or object to a VARCHAR element as its JSON
 * text, silently: a list of text holds only scalar elements (a multi-dimensional array, `[["a"]]`,
 * does not fit, and its column becomes JSON). Casts to other element types refuse nested values.
 */
function listFromText(element: StorageFormat, ref: string, type: string): TextCast {
  const cast = `CAST(CAST(${ref} AS JSON) AS ${type})`;
  if (element.kind !== 'text') return plain(ref, cast);
  const flat = `NOT list_has_any(json_type(CAST(${ref} AS JSON), '$[*]'), ['ARRAY', 'OBJECT'])`;
  return guarded(ref, flat, cast, 'a list of scalar values');
}

/** A date or date-time as a database prints it, era included (era-text.ts), cast to `type`. */
const eraAware = (ref: string, type: string): string => `CAST(${eraText(ref)} AS ${type})`;

/** JSON string literals (removed before looking for bare words), and a bare NaN or Infinity value. */
const JSON_STRINGS = `'"([^"\\\\]|\\\\.)*"'`;
const BARE_NON_FINITE = `'[:\\[,]-?(NaN|Infinity)[,\\]}]'`;

/** The typed value of a typed file's column (Parquet): DuckDB's casts between typed values. */
export function fromTyped(format: StorageFormat, ref: string, sourceType: string): TextCast {
  const type = duckDbType(format);
  if (format.kind === 'exact-decimal' || format.kind === 'text') {
    // Text of a nested value is its JSON; of any other value DuckDB's own spelling.
    const nested = /^(STRUCT|MAP|UNION)\b|\]$/i.test(sourceType);
    return { value: nested ? `CAST(to_json(${ref}) AS VARCHAR)` : `CAST(${ref} AS VARCHAR)`, fits: 'true' };
  }
  if (format.kind === 'json') {
    // DuckDB writes a double's NaN and ±Infinity into JSON as bare words, which its own JSON accepts
    // but no other reader does (the tables API could only answer such a cell as a string): such a
    // value does not fit, and its column becomes the exact text (widening.ts).
    const json = `to_json(${ref})`;
    const bare = `regexp_matches(regexp_replace(CAST(${json} AS VARCHAR), ${JSON_STRINGS}, '""', 'g'), ${BARE_NON_FINITE})`;
    return {
      value:
        `CASE WHEN ${ref} IS NULL THEN NULL WHEN NOT ${bare} THEN CAST(${json} AS JSON) ` +
        `ELSE error(${quoteString('not a JSON value: ')} || CAST(${json} AS VARCHAR)) END`,
      fits: `(${ref} IS NULL OR NOT ${bare})`,
    };
  }
  return plain(ref, `CAST(${ref} AS ${type})`);
}

/**
 * The exact storage of a property: what `DiscoveredProperty.format` says, from discovery to the
 * staging table. ColumnType stays the small vocabulary users see (Number, Text, ...); the format
 * says which kind of number, time or list it is, so nothing is widened to a double or a string:
 *
 *   int8 int16 int32 int64 int128 uint8 uint16 uint32 uint64   whole numbers of that width
 *   decimal(p,s)     exact decimal, p <= 38 digits, s of them after the point
 *   decimal          exact decimal whose digits the data decides: DECIMAL(38,s) with s the
 *                    largest scale read; values needing more than 38 digits (or NaN, Infinity)
 *                    keep the whole column as exact text (the run log says so)
 *   float double     binary floating point (4 and 8 bytes)
 *   boolean text uuid json bytes interval
 *   date             calendar date, BC and ±infinity included
 *   timestamp timestamp_s timestamp_ms timestamp_ns   date and time without a zone
 *   timestamptz      an instant (shown in UTC)
 *   time timetz      time of day
 *   list<f>          a list whose elements have format f
 *
 * `duckDbType` is the one place a format becomes a warehouse type. A format this module does not
 * know (datasets discovered before formats existed carried the source's own type names) falls back
 * to the column type's old storage, so those datasets sync as before.
 */
import type { ColumnType } from '../../../../shared/tables';
import { MAX_DECIMAL_DIGITS } from '../../../warehouse/decimal-shape-sql';

export type StorageFormat =
  | { kind: 'int'; bits: 8 | 16 | 32 | 64 | 128; unsigned: boolean }
  | { kind: 'decimal'; precision: number; scale: number }
  | { kind: 'exact-decimal' }
  | { kind: 'float' }
  | { kind: 'double' }
  | { kind: 'boolean' }
  | { kind: 'text' }
  | { kind: 'date' }
  | { kind: 'timestamp'; unit: 's' | 'ms' | 'us' | 'ns' }
  | { kind: 'timestamptz' }
  | { kind: 'time'; zoned: boolean }
  | { kind: 'interval' }
  | { kind: 'uuid' }
  | { kind: 'bytes' }
  | { kind: 'json' }
  | { kind: 'list'; element: StorageFormat };

/** DuckDB's widest decimal (one constant for every place that types decimals). */
export { MAX_DECIMAL_DIGITS };

const SIMPLE: Record<string, StorageFormat> = {
  decimal: { kind: 'exact-decimal' },
  float: { kind: 'float' },
  double: { kind: 'double' },
  boolean: { kind: 'boolean' },
  text: { kind: 'text' },
  date: { kind: 'date' },
  timestamp: { kind: 'timestamp', unit: 'us' },
  timestamp_s: { kind: 'timestamp', unit: 's' },
  timestamp_ms: { kind: 'timestamp', unit: 'ms' },
  timestamp_ns: { kind: 'timestamp', unit: 'ns' },
  timestamptz: { kind: 'timestamptz' },
  time: { kind: 'time', zoned: false },
  timetz: { kind: 'time', zoned: true },
  interval: { kind: 'interval' },
  uuid: { kind: 'uuid' },
  bytes: { kind: 'bytes' },
  json: { kind: 'json' },
};

export const INT64: StorageFormat = { kind: 'int', bits: 64, unsigned: false };
export const TEXT: StorageFormat = { kind: 'text' };
export const EXACT_DECIMAL: StorageFormat = { kind: 'exact-decimal' };

/** The format a text names, or null when it is not one of this vocabulary. */
export function parseFormat(text: string | undefined): StorageFormat | null {
  if (text === undefined) return null;
  const simple = SIMPLE[text];
  if (simple) return simple;
  const int = /^(u?)int(8|16|32|64|128)$/.exec(text);
  if (int) {
    const bits = Number(int[2]) as 8 | 16 | 32 | 64 | 128;
    if (int[1] === 'u' && bits === 128) return null;
    return { kind: 'int', bits, unsigned: int[1] === 'u' };
  }
  const decimal = /^decimal\((\d{1,2}),(\d{1,2})\)$/.exec(text);
  if (decimal) {
    const precision = Number(decimal[1]);
    const scale = Number(decimal[2]);
    if (precision < 1 || precision > MAX_DECIMAL_DIGITS || scale > precision) return null;
    return { kind: 'decimal', precision, scale };
  }
  const list = /^list<(.+)>$/.exec(text);
  if (list) {
    const element = parseFormat(list[1]);
    return element ? { kind: 'list', element } : null;
  }
  return null;
}

export function formatText(format: StorageFormat): string {
  switch (format.kind) {
    case 'int':
      return `${format.unsigned ? 'u' : ''}int${format.bits}`;
    case 'decimal':
      return `decimal(${format.precision},${format.scale})`;
    case 'exact-decimal':
      return 'decimal';
    case 'timestamp':
      return format.unit === 'us' ? 'timestamp' : `timestamp_${format.unit}`;
    case 'time':
      return format.zoned ? 'timetz' : 'time';
    case 'list':
      return `list<${formatText(format.element)}>`;
    default:
      return format.kind;
  }
}

const INT_TYPES: Record<string, string> = {
  int8: 'TINYINT',
  int16: 'SMALLINT',
  int32: 'INTEGER',
  int64: 'BIGINT',
  int128: 'HUGEINT',
  uint8: 'UTINYINT',
  uint16: 'USMALLINT',
  uint32: 'UINTEGER',
  uint64: 'UBIGINT',
};

/**
 * The warehouse type of a format. `decimal` (precision from the data) is staged as text and
 * typed once the data is known (staging.ts), so its type here is VARCHAR.
 */
export function duckDbType(format: StorageFormat): string {
  switch (format.kind) {
    case 'int':
      return INT_TYPES[formatText(format)] as string;
    case 'decimal':
      return `DECIMAL(${format.precision},${format.scale})`;
    case 'exact-decimal':
    case 'text':
      return 'VARCHAR';
    case 'float':
      return 'FLOAT';
    case 'double':
      return 'DOUBLE';
    case 'boolean':
      return 'BOOLEAN';
    case 'date':
      return 'DATE';
    case 'timestamp':
      return { s: 'TIMESTAMP_S', ms: 'TIMESTAMP_MS', us: 'TIMESTAMP', ns: 'TIMESTAMP_NS' }[format.unit];
    case 'timestamptz':
      return 'TIMESTAMPTZ';
    case 'time':
      return format.zoned ? 'TIMETZ' : 'TIME';
    case 'interval':
      return 'INTERVAL';
    case 'uuid':
      return 'UUID';
    case 'bytes':
      return 'BLOB';
    case 'json':
      return 'JSON';
    case 'list':
      return `${duckDbType(format.element)}[]`;
  }
}

/** The column type users see for a format (what the tables API derives from the stored type). */
export function columnTypeOfFormat(format: StorageFormat): ColumnType {
  switch (format.kind) {
    case 'int':
    case 'decimal':
    case 'exact-decimal':
    case 'float':
    case 'double':
      return 'Number';
    case 'boolean':
      return 'Boolean';
    case 'date':
      return 'Date';
    case 'timestamp':
    case 'timestamptz':
      return 'DateTime';
    case 'json':
      return 'Json';
    case 'list':
      return 'Array';
    default:
      return 'Text';
  }
}

/** How datasets discovered before formats existed were stored: kept, so they sync as before. */
function legacyFormat(type: ColumnType): StorageFormat {
  switch (type) {
    case 'Number':
      return { kind: 'double' };
    case 'Boolean':
      return { kind: 'boolean' };
    case 'Date':
      return { kind: 'date' };
    case 'DateTime':
      return { kind: 'timestamptz' };
    case 'Json':
    case 'Array':
      return { kind: 'json' };
    default:
      return TEXT;
  }
}

/** The storage of a discovered property: its format, or the old storage of its column type. */
export function storageOf(property: { type: ColumnType; format?: string }): StorageFormat {
  return parseFormat(property.format) ?? legacyFormat(property.type);
}

const DUCKDB_NAMES: Record<string, StorageFormat> = {
  TINYINT: { kind: 'int', bits: 8, unsigned: false },
  SMALLINT: { kind: 'int', bits: 16, unsigned: false },
  INTEGER: { kind: 'int', bits: 32, unsigned: false },
  BIGINT: INT64,
  HUGEINT: { kind: 'int', bits: 128, unsigned: false },
  UTINYINT: { kind: 'int', bits: 8, unsigned: true },
  USMALLINT: { kind: 'int', bits: 16, unsigned: true },
  UINTEGER: { kind: 'int', bits: 32, unsigned: true },
  UBIGINT: { kind: 'int', bits: 64, unsigned: true },
  FLOAT: { kind: 'float' },
  DOUBLE: { kind: 'double' },
  BOOLEAN: { kind: 'boolean' },
  VARCHAR: TEXT,
  DATE: { kind: 'date' },
  TIMESTAMP: { kind: 'timestamp', unit: 'us' },
  TIMESTAMP_S: { kind: 'timestamp', unit: 's' },
  TIMESTAMP_MS: { kind: 'timestamp', unit: 'ms' },
  TIMESTAMP_NS: { kind: 'timestamp', unit: 'ns' },
  'TIMESTAMP WITH TIME ZONE': { kind: 'timestamptz' },
  TIMESTAMPTZ: { kind: 'timestamptz' },
  TIME: { kind: 'time', zoned: false },
  'TIME WITH TIME ZONE': { kind: 'time', zoned: true },
  TIMETZ: { kind: 'time', zoned: true },
  INTERVAL: { kind: 'interval' },
  UUID: { kind: 'uuid' },
  BLOB: { kind: 'bytes' },
  JSON: { kind: 'json' },
};

/**
 * The format of a DuckDB type name as DESCRIBE prints it (files sniffed by DuckDB, Parquet
 * schemas, stored tables). Structs, maps and unions are kept as JSON, lists of them too; names
 * this module does not know (ENUM, BIT, VARINT, ...) as text.
 */
export function formatOfDuckDbType(typeName: string): StorageFormat {
  const name = typeName.trim();
  const list = /^(.*)\[\d*\]$/s.exec(name);
  if (list) {
    const element = formatOfDuckDbType(list[1] as string);
    return element.kind === 'json' || element.kind === 'list' ? { kind: 'json' } : { kind: 'list', element };
  }
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/i.exec(name);
  if (decimal) return { kind: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) };
  if (/^(STRUCT|MAP|UNION)\b/i.test(name)) return { kind: 'json' };
  return DUCKDB_NAMES[name.toUpperCase()] ?? TEXT;
}

/**
 * One spelling per value, whoever printed it: the source (PostgreSQL's text output, JSON from an
 * API), the tables API (json-values.ts) or DuckDB's text (CSV exports, Parquet read back). Two
 * renderings are the same value exactly when their canonical forms are equal: numbers compare as
 * exact decimals, dates by astronomical year, instants in UTC, intervals by their three parts.
 */
import { normalDecimal, plainDecimal, fitsDouble } from '../../../../src/server/exact-values/decimal-text';
import { ExactNumber, parseJsonExact } from '../../../../src/server/exact-values/json';

export type Kind =
  | 'int'
  | 'decimal'
  | 'float'
  | 'double'
  | 'boolean'
  | 'text'
  | 'date'
  | 'timestamp'
  | 'timestamptz'
  | 'time'
  | 'timetz'
  | 'interval'
  | 'uuid'
  | 'bytes'
  | 'json';

export type Printer = 'source' | 'api' | 'duckdb';

const pad = (n: number | string, width: number) => String(n).padStart(width, '0');

function decimal(text: string): string {
  const plain = plainDecimal(text);
  if (plain === null) throw new Error(`not a number: ${text}`);
  return normalDecimal(plain);
}

function floating(value: unknown): string {
  const text = String(value).trim().toLowerCase();
  if (text === 'nan') return 'NaN';
  if (text === 'inf' || text === 'infinity') return 'Infinity';
  if (text === '-inf' || text === '-infinity') return '-Infinity';
  return String(Number(text));
}

/** `[astronomical year, month, day, rest]` of a date or date-time text in any of the three spellings. */
function datePart(text: string): { year: number; rest: string } {
  let value = text.trim();
  let bc = false;
  if (/ BC$/.test(value)) {
    bc = true;
    value = value.slice(0, -3);
  }
  if (value.includes(' (BC)')) {
    bc = true;
    value = value.replace(' (BC)', '');
  }
  const match = /^([+-]?\d+)-(\d{2})-(\d{2})(.*)$/.exec(value);
  if (!match) throw new Error(`not a date: ${text}`);
  const written = Number(match[1]);
  return { year: bc ? 1 - written : written, rest: `${match[2]}-${match[3]}${match[4]}` };
}

function clock(text: string): string {
  const match = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a time: ${text}`);
  return `${match[1]}:${match[2]}:${match[3]}.${(match[4] ?? '').padEnd(9, '0')}`;
}

function dateText(text: string): string {
  if (/infinity$/i.test(text.trim())) return text.trim().toLowerCase();
  const { year, rest } = datePart(text);
  return `${year}-${rest}`;
}

/** A date and time (zone dropped: every instant here is in UTC, or has no zone). */
function dateTimeText(text: string): string {
  if (/infinity$/i.test(text.trim())) return text.trim().toLowerCase();
  const { year, rest } = datePart(text);
  const match = /^(\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(rest);
  if (!match) throw new Error(`not a date and time: ${text}`);
  const zone = match[3];
  if (zone && !/^(Z|[+-]00(:?00)?)$/.test(zone)) throw new Error(`not in UTC: ${text}`);
  return `${year}-${match[1]} ${clock(match[2] as string)}`;
}

function zonedTime(text: string): string {
  const match = /^(\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/.exec(text.trim());
  if (!match) throw new Error(`not a time with zone: ${text}`);
  return `${clock(match[1] as string)}${match[2]}:${match[3] ?? '00'}`;
}

/** Months, days and microseconds of an ISO 8601 duration or DuckDB's interval text. */
function intervalText(text: string): string {
  const value = text.trim();
  let months = 0n;
  let days = 0n;
  let micros = 0n;
  const seconds = (s: string) => {
    const negative = s.startsWith('-');
    const [whole = '0', fraction = ''] = s.replace(/^[+-]/, '').split('.');
    const us = BigInt(whole) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6));
    return negative ? -us : us;
  };
  if (value.startsWith('P')) {
    const match =
      /^P(?:(-?\d+)Y)?(?:(-?\d+)M)?(?:(-?\d+)W)?(?:(-?\d+)D)?(?:T(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+(?:\.\d+)?)S)?)?$/.exec(
        value,
      );
    if (!match) throw new Error(`not an ISO duration: ${text}`);
    const [, y, mo, w, d, h, mi, s] = match;
    months = BigInt(y ?? 0) * 12n + BigInt(mo ?? 0);
    days = BigInt(w ?? 0) * 7n + BigInt(d ?? 0);
    micros = BigInt(h ?? 0) * 3_600_000_000n + BigInt(mi ?? 0) * 60_000_000n + seconds(s ?? '0');
  } else {
    let rest = value;
    for (const [unit, apply] of [
      ['years?', (n: bigint) => (months += n * 12n)],
      ['mons?|months?', (n: bigint) => (months += n)],
      ['days?', (n: bigint) => (days += n)],
    ] as const) {
      const match = new RegExp(`(-?\\d+) (?:${unit})\\b`).exec(rest);
      if (match) {
        apply(BigInt(match[1] as string));
        rest = rest.replace(match[0], '');
      }
    }
    const time = /(-?)(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(rest);
    if (time) {
      const us =
        BigInt(time[2] as string) * 3_600_000_000n +
        BigInt(time[3] as string) * 60_000_000n +
        seconds(time[4] as string);
      micros = time[1] === '-' ? -us : us;
    }
  }
  return `${months}|${days}|${micros}`;
}

function bytesHex(value: string, printer: Printer): string {
  if (printer === 'api') return Buffer.from(value, 'base64').toString('hex');
  if (value.startsWith('\\x') && printer === 'source') return value.slice(2).toLowerCase();
  // DuckDB: printable bytes as themselves, the others as \xHH.
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\' && value[i + 1] === 'x') {
      bytes.push(parseInt(value.slice(i + 2, i + 4), 16));
      i += 3;
    } else bytes.push(value.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('hex');
}

/**
 * JSON with every number as `n:<exact decimal>` and every string as `s:<text>`, keys sorted. The
 * API sends a number a double would change as its text: `numbersAsText` accepts that spelling.
 */
export function jsonCanonical(value: unknown, numbersAsText = false): string {
  const walk = (v: unknown): unknown => {
    if (v instanceof ExactNumber || typeof v === 'number') return `n:${decimal(String(v))}`;
    if (typeof v === 'string') {
      if (numbersAsText && plainDecimal(v) !== null && !fitsDouble(v)) return `n:${decimal(v)}`;
      return `s:${v}`;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, walk((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(walk(value));
}

/** The canonical form of a value as `printer` renders a value of `kind`; null stays null. */
export function canonical(kind: Kind, value: unknown, printer: Printer): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : String(value);
  switch (kind) {
    case 'int':
      return BigInt(text).toString();
    case 'decimal':
      return decimal(text);
    case 'float': {
      // A FLOAT is one float32: every decimal that reads back as it is the same value.
      const text = floating(value);
      return /^-?\d/.test(text) ? String(Math.fround(Number(text))) : text;
    }
    case 'double':
      return floating(value);
    case 'boolean':
      return text === 't' ? 'true' : text === 'f' ? 'false' : text;
    case 'text':
    case 'uuid':
      return text;
    case 'date':
      return dateText(text);
    case 'timestamp':
    case 'timestamptz':
      return dateTimeText(text);
    case 'time':
      return clock(text);
    case 'timetz':
      return zonedTime(text);
    case 'interval':
      return intervalText(text);
    case 'bytes':
      return bytesHex(text, printer);
    case 'json':
      return printer === 'api' ? jsonCanonical(value, true) : jsonCanonical(parseJsonExact(text));
  }
}

/** Date and time parts of a PostgreSQL array element as to_json prints it ("2024-01-01T10:00:00", "… BC"). */
export function canonicalElement(kind: Kind, value: unknown, printer: Printer): string | null {
  if (value instanceof ExactNumber) return canonical(kind, value.text, printer);
  return canonical(kind, value, printer);
}

export { pad };

/**
 * ISO 8601 dates and date-times as filters carry them, checked here rather than left to the
 * database so a bad value is a clear ModelError, and turned into the canonical text that is bound
 * and cast in SQL (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS[.ffffff]`, always UTC).
 */

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** The digits after the second as written (up to 9, nanoseconds), trailing zeros dropped. */
  fraction: string;
  hasTime: boolean;
  /** Minutes east of UTC; 0 for `Z` and for values without a zone (taken as UTC). */
  offsetMinutes: number;
}

// Date, then optionally a time (T, t or space), then optionally a zone: Z, ±HH, ±HHMM or ±HH:MM.
// The year in ISO years as the grid writes them: `2024`, `0000` (1 BC), `-0043` (44 BC), and with a
// sign and six digits past 0000-9999 (`-000043`, `+010000`), as JavaScript's toISOString does.
const ISO =
  /^([+-]\d{6}|-?\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function parse(text: string): Parts | null {
  const match = ISO.exec(text.trim());
  if (!match) return null;
  const num = (index: number): number => Number(match[index] ?? '0');
  const parts: Parts = {
    year: num(1),
    month: num(2),
    day: num(3),
    hour: num(4),
    minute: num(5),
    second: num(6),
    fraction: (match[7] ?? '').replace(/0+$/, ''),
    hasTime: match[4] !== undefined,
    offsetMinutes: match[9] === undefined ? 0 : (match[9] === '-' ? -1 : 1) * (num(10) * 60 + num(11)),
  };
  const valid =
    parts.year >= MIN_YEAR &&
    parts.year <= MAX_YEAR &&
    parts.month >= 1 &&
    parts.month <= 12 &&
    parts.day >= 1 &&
    parts.day <= daysInMonth(parts.year, parts.month) &&
    parts.hour <= 23 &&
    parts.minute <= 59 &&
    parts.second <= 59 &&
    num(10) <= 23 &&
    num(11) <= 59;
  return valid ? parts : null;
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/**
 * The years a filter value may name: those JavaScript's dates reach (the day arithmetic below), all
 * within DuckDB's DATE and TIMESTAMP.
 */
const MIN_YEAR = -271820;
const MAX_YEAR = 275759;

/** `YYYY-MM-DD`, a year before 0 as `-YYYY` (ISO years), which DuckDB reads as such. */
function formatDate(year: number, month: number, day: number): string {
  const yearText = year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
  return `${yearText}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Moves civil date-time parts by whole minutes (and seconds); null when the result leaves the years above. */
function shift(parts: Parts, minutes: number, seconds = 0): Parts | null {
  const at = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  at.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  at.setUTCHours(parts.hour, parts.minute + minutes, parts.second + seconds, 0);
  const year = at.getUTCFullYear();
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  return {
    ...parts,
    year,
    month: at.getUTCMonth() + 1,
    day: at.getUTCDate(),
    hour: at.getUTCHours(),
    minute: at.getUTCMinutes(),
    second: at.getUTCSeconds(),
  };
}

function formatTimestamp(parts: Parts): string {
  const time = `${pad(parts.hour, 2)}:${pad(parts.minute, 2)}:${pad(parts.second, 2)}`;
  return `${formatDate(parts.year, parts.month, parts.day)} ${time}${parts.fraction ? `.${parts.fraction}` : ''}`;
}

/**
 * A Date filter value: `YYYY-MM-DD`, or a date-time whose date part is taken as written (the
 * date-time picker sends midnight with the user's zone, and the user meant that calendar day).
 */
export function parseDateValue(text: string): string | null {
  const parts = parse(text);
  return parts ? formatDate(parts.year, parts.month, parts.day) : null;
}

/**
 * The digits after the second each timestamp type holds, by the name DuckDB's catalog prints:
 * DuckDB's cast of text with more cuts them without a word, so callers check such text first.
 */
export const FRACTION_DIGITS_OF: Readonly<Record<string, number>> = {
  TIMESTAMP_S: 0,
  TIMESTAMP_MS: 3,
  TIMESTAMP: 6,
  'TIMESTAMP WITH TIME ZONE': 6,
  TIMESTAMP_NS: 9,
};

/**
 * A DateTime filter value, for a column holding `digits` digits after the second: an exact instant;
 * a whole UTC day when only a date was given; or, for an instant with finer digits than the column
 * holds, the gap just below `ceiling`, the column's next value after it (no value equals it).
 */
export type DateTimeValue =
  | { kind: 'instant'; timestamp: string }
  | { kind: 'day'; start: string; end: string }
  | { kind: 'gap'; ceiling: string };

export function parseDateTimeValue(text: string, digits = 6): DateTimeValue | null {
  const parts = parse(text);
  if (!parts) return null;
  if (!parts.hasTime) {
    const next = shift(parts, 24 * 60);
    if (!next) return null;
    return { kind: 'day', start: formatTimestamp(parts), end: formatTimestamp(next) };
  }
  const utc = shift(parts, -parts.offsetMinutes);
  if (!utc) return null;
  if (utc.fraction.length <= digits) return { kind: 'instant', timestamp: formatTimestamp(utc) };
  // Up to the column's next value: its digits plus one in the last place, carried into the second.
  const kept = utc.fraction.slice(0, digits);
  const up = digits === 0 ? '1' : String(Number(kept) + 1).padStart(digits, '0');
  if (up.length <= digits)
    return { kind: 'gap', ceiling: formatTimestamp({ ...utc, fraction: up.replace(/0+$/, '') }) };
  const next = shift({ ...utc, fraction: '' }, 0, 1);
  return next ? { kind: 'gap', ceiling: formatTimestamp(next) } : null;
}

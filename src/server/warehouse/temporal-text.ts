import {
  DuckDBTimeValue,
  DuckDBTimestampValue,
  type DuckDBDateValue,
  type DuckDBIntervalValue,
  type DuckDBTimeTZValue,
} from '@duckdb/node-api';

/**
 * ISO 8601 text for DuckDB's dates, times and intervals. Built from parts rather than through JS Date,
 * whose range (±275,760 years) and millisecond precision are both smaller than DuckDB's.
 */

export const infinityText = (positive: boolean) => (positive ? 'infinity' : '-infinity');

const pad = (n: number | bigint, width: number) => String(n).padStart(width, '0');

/** Years 0-9999 as four digits, others as ISO's expanded form (±YYYYYY), like Date.toISOString. */
function isoYear(year: number): string {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
}

/** Fraction of a second: empty when zero, else the digits without trailing zeros. */
function trimmedFraction(digits: string): string {
  const trimmed = digits.replace(/0+$/, '');
  return trimmed === '' ? '' : `.${trimmed}`;
}

export function dateText(value: DuckDBDateValue): string {
  if (!value.isFinite) return infinityText(value.days > 0);
  const { year, month, day } = value.toParts();
  return `${isoYear(year)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ` (what Date.toISOString gives) from microseconds since the epoch in UTC;
 * six or nine fraction digits only when the value has that precision, so nothing is rounded away.
 */
export function timestampText(micros: bigint, extraNanos = 0n): string {
  const { date, time } = new DuckDBTimestampValue(micros).toParts();
  const day = `${isoYear(date.year)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
  const clock = `${pad(time.hour, 2)}:${pad(time.min, 2)}:${pad(time.sec, 2)}`;
  let fraction = pad(Math.floor(time.micros / 1000), 3);
  if (time.micros % 1000 !== 0 || extraNanos !== 0n) fraction = pad(time.micros, 6);
  if (extraNanos !== 0n) fraction += pad(extraNanos, 3);
  return `${day}T${clock}.${fraction}Z`;
}

export type TimestampUnit = 'seconds' | 'millis' | 'micros' | 'nanos';

/** A finite timestamp counted in `unit`s since the epoch. */
export function timestampInUnits(amount: bigint, unit: TimestampUnit): string {
  switch (unit) {
    case 'seconds':
      return timestampText(amount * 1_000_000n);
    case 'millis':
      return timestampText(amount * 1000n);
    case 'micros':
      return timestampText(amount);
    case 'nanos': {
      // Floor division, so times before 1970 keep a positive nanosecond remainder.
      let micros = amount / 1000n;
      let nanos = amount % 1000n;
      if (nanos < 0n) {
        micros -= 1n;
        nanos += 1000n;
      }
      return timestampText(micros, nanos);
    }
  }
}

/** `HH:MM:SS`, with a fraction only when there is one. */
export function timeText(micros: bigint, extraNanos = 0n): string {
  const { hour, min, sec, micros: fraction } = new DuckDBTimeValue(micros).toParts();
  const digits = extraNanos === 0n ? pad(fraction, 6) : pad(fraction, 6) + pad(extraNanos, 3);
  return `${pad(hour, 2)}:${pad(min, 2)}:${pad(sec, 2)}${trimmedFraction(digits)}`;
}

export function timeNsText(nanos: bigint): string {
  return timeText(nanos / 1000n, nanos % 1000n);
}

/** `HH:MM:SS+HH:MM`; the offset is in seconds east of UTC. */
export function timeTzText(value: DuckDBTimeTZValue): string {
  const sign = value.offset < 0 ? '-' : '+';
  const offset = Math.abs(value.offset);
  const seconds = offset % 60;
  const zone = `${sign}${pad(Math.floor(offset / 3600), 2)}:${pad(Math.floor(offset / 60) % 60, 2)}`;
  return `${timeText(value.micros)}${zone}${seconds === 0 ? '' : `:${pad(seconds, 2)}`}`;
}

/**
 * ISO 8601 duration (`P1Y2M3DT4H5M6.5S`, `PT0S` when empty). DuckDB keeps months, days and
 * microseconds apart (a month is not a fixed number of days), so each part keeps its own sign.
 */
export function intervalText(value: DuckDBIntervalValue): string {
  const years = Math.trunc(value.months / 12);
  const months = value.months % 12;
  const negative = value.micros < 0n;
  const abs = negative ? -value.micros : value.micros;
  const sign = negative ? '-' : '';
  const hours = abs / 3_600_000_000n;
  const minutes = (abs / 60_000_000n) % 60n;
  const seconds = (abs / 1_000_000n) % 60n;
  const fraction = trimmedFraction(pad(abs % 1_000_000n, 6));

  let date = '';
  if (years !== 0) date += `${years}Y`;
  if (months !== 0) date += `${months}M`;
  if (value.days !== 0) date += `${value.days}D`;
  let time = '';
  if (hours !== 0n) time += `${sign}${hours}H`;
  if (minutes !== 0n) time += `${sign}${minutes}M`;
  if (seconds !== 0n || fraction !== '') time += `${sign}${seconds}${fraction}S`;
  if (date === '' && time === '') return 'PT0S';
  return `P${date}${time === '' ? '' : `T${time}`}`;
}

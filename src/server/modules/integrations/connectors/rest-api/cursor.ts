/**
 * Cursor values of incremental syncs: numbers compare exactly as decimals (a 19-digit id as
 * itself, not as the nearest double), ISO dates and timestamps as exact instants (so
 * '2024-01-01T10:00:00+05:30' equals '2024-01-01T04:30:00Z', and digits past the millisecond
 * count), anything else as text.
 */
import { compareDecimals, plainDecimal } from '../../../../exact-values/decimal-text';
import { ExactNumber } from '../../../../exact-values/json';

const ISO_INSTANT =
  /^([+-]?\d{4,})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** Days from 1970-01-01 to a proleptic Gregorian date (astronomical years). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * An ISO date or date-time as an exact instant: whole seconds since the epoch (UTC; a text without
 * a zone is read as UTC) and the digits after the second as written. Null when it is not one.
 */
export function exactInstant(text: string): { seconds: bigint; fraction: string } | null {
  const match = ISO_INSTANT.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', , sign, oh = '0', om = '0'] = match;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 24 || Number(mi) > 59 || Number(s) > 60) {
    return null;
  }
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60);
  const seconds =
    BigInt(daysFromCivil(Number(y), month, day)) * 86400n +
    BigInt(Number(h) * 3600 + Number(mi) * 60 + Number(s) - offset);
  return { seconds, fraction: fraction.replace(/0+$/, '') };
}

function compareInstants(a: { seconds: bigint; fraction: string }, b: { seconds: bigint; fraction: string }): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/** The exact decimal of a number-like cursor, or null. */
function decimalOf(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? plainDecimal(String(value)) : null;
  if (value instanceof ExactNumber) return plainDecimal(value.text);
  if (typeof value === 'string' && value.trim() !== '') return plainDecimal(value);
  return null;
}

export function compareCursors(a: unknown, b: unknown): number {
  const sa = String(a);
  const sb = String(b);
  const ta = typeof a === 'string' ? exactInstant(a) : null;
  const tb = typeof b === 'string' ? exactInstant(b) : null;
  if (ta !== null && tb !== null) return compareInstants(ta, tb);
  const da = decimalOf(a);
  const db = decimalOf(b);
  if (da !== null && db !== null) return compareDecimals(da, db);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The saved state of an incremental dataset: the largest cursor value seen. */
export interface CursorState {
  cursor: string | number | ExactNumber;
}

type Cursor = CursorState['cursor'];
const isCursor = (value: unknown): value is Cursor =>
  typeof value === 'string' || typeof value === 'number' || value instanceof ExactNumber;

export function readCursorState(state: unknown): CursorState | null {
  if (typeof state !== 'object' || state === null) return null;
  const cursor = (state as { cursor?: unknown }).cursor;
  return isCursor(cursor) ? { cursor } : null;
}

/** Tracks the largest cursor over a read. */
export class CursorTracker {
  max: Cursor | null;
  constructor(start: CursorState | null) {
    this.max = start?.cursor ?? null;
  }
  see(value: unknown): void {
    if (!isCursor(value)) return;
    if (this.max === null || compareCursors(value, this.max) > 0) this.max = value;
  }
}

/**
 * Cursor values of incremental syncs: numbers compare exactly as decimals (a 19-digit id as
 * itself, not as the nearest double), ISO timestamps as instants (so '2024-01-02T00:00:00+01:00'
 * and '...Z' order correctly), anything else as text.
 */
import { compareDecimals, plainDecimal } from '../../../../exact-values/decimal-text';
import { ExactNumber } from '../../../../exact-values/json';

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
  const ta = /^\d{4}-\d{2}-\d{2}/.test(sa) ? Date.parse(sa) : NaN;
  const tb = /^\d{4}-\d{2}-\d{2}/.test(sb) ? Date.parse(sb) : NaN;
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta - tb;
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

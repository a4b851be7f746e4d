/**
 * Cursor values of incremental syncs: numbers compare as numbers, ISO timestamps as instants (so
 * '2024-01-02T00:00:00+01:00' and '...Z' order correctly), anything else as text.
 */
export function compareCursors(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  const ta = /^\d{4}-\d{2}-\d{2}/.test(sa) ? Date.parse(sa) : NaN;
  const tb = /^\d{4}-\d{2}-\d{2}/.test(sb) ? Date.parse(sb) : NaN;
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta - tb;
  const na = Number(sa);
  const nb = Number(sb);
  if (sa.trim() !== '' && sb.trim() !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The saved state of an incremental dataset: the largest cursor value seen. */
export interface CursorState {
  cursor: string | number;
}

export function readCursorState(state: unknown): CursorState | null {
  if (typeof state !== 'object' || state === null) return null;
  const cursor = (state as { cursor?: unknown }).cursor;
  return typeof cursor === 'string' || typeof cursor === 'number' ? { cursor } : null;
}

/** Tracks the largest cursor over a read. */
export class CursorTracker {
  max: string | number | null;
  constructor(start: CursorState | null) {
    this.max = start?.cursor ?? null;
  }
  see(value: unknown): void {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    if (this.max === null || compareCursors(value, this.max) > 0) this.max = value;
  }
}

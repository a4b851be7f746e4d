import { STATIC_TABLE_LIMITS } from '../../../shared/static-tables';

/**
 * Splits items into calls the server accepts: at most `maxCount` items and about
 * `STATIC_TABLE_LIMITS.editorCallBytes` of JSON in each (an item larger than that goes alone).
 */
export function batches<T>(
  items: readonly T[],
  maxCount: number,
  maxBytes = STATIC_TABLE_LIMITS.editorCallBytes,
): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item).length + 1;
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Items in groups of at most `size` (ids to delete, columns to add). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

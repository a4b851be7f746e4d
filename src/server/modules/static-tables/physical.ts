import { randomInt } from 'node:crypto';
import { quoteIdentifier } from '../../warehouse/quote';

/** Rows of a static table live in the account's warehouse as `static.t_<id>`. */
export const STATIC_SCHEMA = 'static';
/** A hidden column numbering rows: the grid's stable key, and the order rows were added in. */
export const ROW_ID = '_row_id';

export function warehouseTableName(tableId: string): string {
  return `t_${tableId.replace(/-/g, '')}`;
}

export function qualified(tableId: string): string {
  return `${q(STATIC_SCHEMA)}.${q(warehouseTableName(tableId))}`;
}

/** Short for the one identifier-quoting function (the engine dialect's). */
export const q = quoteIdentifier;

/** Keys a caller may choose: lowercase letters, digits and `_`, starting with a letter (never `_row_id`). */
export function isValidColumnKey(key: string): boolean {
  return /^[a-z][a-z0-9_]{0,62}$/.test(key);
}

/** Generated column keys: 4 random lowercase letters (spec), unique within the table. */
export function newColumnKey(taken: ReadonlySet<string>): string {
  for (;;) {
    const key = Array.from({ length: 4 }, () => String.fromCharCode(97 + randomInt(26))).join('');
    if (!taken.has(key) && key !== ROW_ID) return key;
  }
}

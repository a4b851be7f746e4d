/**
 * Infers property types from a sample of JSON records (REST API, JSON files, webhooks: sources
 * without a declared schema). Each property gets the narrowest storage format (formats.ts) that
 * holds every non-null sample value exactly: whole numbers within 64 bits as int64, numbers a
 * double prints back unchanged as double, other numbers (19+ digits, 0.30000000000000000001) as an
 * exact decimal; ISO dates and date-times; lists of one element type; other arrays and objects as
 * JSON. Disagreeing samples fall back to text, which holds any value exactly.
 *
 * Later values the sample did not foresee widen the column rather than change (staging.ts), so
 * every property is marked `onMisfit: 'text'`.
 */
import type { ColumnType } from '../../../../../shared/tables';
import { fitsDouble, isIntegerWithin, plainDecimal } from '../../../../exact-values/decimal-text';
import { ExactNumber } from '../../../../exact-values/json';
import { columnTypeOfFormat, formatText, type StorageFormat } from '../formats';
import type { DiscoveredProperty } from '../types';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An instant to the microsecond at most: finer digits would be cut, so such text stays text. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6}0*)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

const INT64: StorageFormat = { kind: 'int', bits: 64, unsigned: false };
const DOUBLE: StorageFormat = { kind: 'double' };
const DECIMAL: StorageFormat = { kind: 'exact-decimal' };
const TEXT: StorageFormat = { kind: 'text' };
const JSON_FORMAT: StorageFormat = { kind: 'json' };

/** The format of a number's exact text. */
function numberFormat(text: string): StorageFormat {
  const plain = plainDecimal(text);
  if (plain === null) return TEXT;
  if (!plain.includes('.') && isIntegerWithin(plain, INT64_MIN, INT64_MAX)) return INT64;
  return !plain.includes('.') || !fitsDouble(text) ? DECIMAL : DOUBLE;
}

const isNumeric = (format: StorageFormat) =>
  format.kind === 'int' || format.kind === 'double' || format.kind === 'exact-decimal';

function merge(a: StorageFormat, b: StorageFormat): StorageFormat {
  if (a === ANY_LIST && b.kind === 'list') return b;
  if (b === ANY_LIST && a.kind === 'list') return a;
  if (formatText(a) === formatText(b)) return a;
  if (isNumeric(a) && isNumeric(b)) {
    // Whole numbers and doubles together are exact as doubles only when no decimal needs more.
    if (a.kind === 'exact-decimal' || b.kind === 'exact-decimal') return DECIMAL;
    return DOUBLE;
  }
  const kinds = new Set([a.kind, b.kind]);
  if (kinds.has('date') && kinds.has('timestamptz')) return { kind: 'timestamptz' };
  if (a.kind === 'list' && b.kind === 'list') {
    if (!sameJsonKind(a.element, b.element)) return JSON_FORMAT;
    const element = merge(a.element, b.element);
    if (element.kind === 'json') return JSON_FORMAT;
    return { kind: 'list', element: element.kind === 'exact-decimal' ? TEXT : element };
  }
  if (kinds.has('json') || kinds.has('list')) return JSON_FORMAT;
  return TEXT;
}

/** An empty list (or one of nulls): a list, of elements another sample will tell. */
const ANY_LIST: StorageFormat = { kind: 'list', element: TEXT };

/** Whether a JSON value of the format is a string (text, a date, an instant), not a number or boolean. */
const isStringKind = (format: StorageFormat) =>
  format.kind === 'text' || format.kind === 'date' || format.kind === 'timestamptz';

/** Whether two element formats are one JSON kind (strings, numbers or booleans), so one list type holds both. */
const sameJsonKind = (a: StorageFormat, b: StorageFormat) =>
  isStringKind(a) ? isStringKind(b) : isNumeric(a) ? isNumeric(b) : a.kind === b.kind;

/**
 * A list's format from its elements; arrays holding arrays or objects are one JSON document, and so
 * are arrays mixing strings, numbers and booleans: a list of text would make `1` the string "1".
 */
function listFormat(items: unknown[]): StorageFormat {
  let element: StorageFormat | null = null;
  for (const item of items) {
    const next = inferValueFormat(item);
    if (next === null) continue;
    if (next.kind === 'json' || next.kind === 'list') return JSON_FORMAT;
    if (element !== null && !sameJsonKind(element, next)) return JSON_FORMAT;
    element = element === null ? next : merge(element, next);
  }
  if (element === null) return ANY_LIST;
  // Numbers of any precision in a list: each kept as its exact text (lists hold fixed types).
  return { kind: 'list', element: element.kind === 'exact-decimal' ? TEXT : element };
}

/** The format of one value, or null for null (no evidence). */
export function inferValueFormat(value: unknown): StorageFormat | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? INT64 : DOUBLE;
  if (value instanceof ExactNumber) return numberFormat(value.text);
  if (typeof value === 'bigint') return numberFormat(value.toString());
  if (typeof value === 'boolean') return { kind: 'boolean' };
  if (Array.isArray(value)) return listFormat(value as unknown[]);
  if (typeof value === 'object') return JSON_FORMAT;
  const text = String(value);
  if (ISO_DATE.test(text)) return { kind: 'date' };
  if (ISO_DATE_TIME.test(text)) return { kind: 'timestamptz' };
  return TEXT;
}

/** The column type (grid) and format of a value, for callers that show what a value is. */
export function inferValueType(value: unknown): { type: ColumnType; format: string } | null {
  const format = inferValueFormat(value);
  return format === null ? null : { type: columnTypeOfFormat(format), format: formatText(format) };
}

export interface InferOptions {
  primaryKey: string[];
  cursorField: string | null;
}

/** Properties in first-seen order; primary key and cursor fields exist even if no sample had them. */
export function inferProperties(records: Record<string, unknown>[], options: InferOptions): DiscoveredProperty[] {
  const formats = new Map<string, StorageFormat | null>();
  for (const record of records) {
    for (const [name, value] of Object.entries(record)) {
      const seen = formats.get(name) ?? null;
      const next = inferValueFormat(value);
      formats.set(name, next === null ? seen : seen === null ? next : merge(seen, next));
    }
  }
  for (const name of [...options.primaryKey, ...(options.cursorField ? [options.cursorField] : [])]) {
    if (!formats.has(name)) formats.set(name, null);
  }
  return [...formats].map(([name, inferred]) => {
    const format = inferred ?? TEXT;
    return {
      name,
      type: columnTypeOfFormat(format),
      format: formatText(format),
      isPrimaryKey: options.primaryKey.includes(name),
      isCursor: options.cursorField === name,
      onMisfit: 'text',
    };
  });
}

/** Keeps only the selected properties of a record (all of them when none are named). */
export function pickProperties(record: Record<string, unknown>, properties: string[]): Record<string, unknown> {
  if (properties.length === 0) return record;
  // Plain objects stay fast to build and read; a property named __proto__ is set as data.
  const picked: Record<string, unknown> = {};
  for (const name of properties) {
    const value = Object.hasOwn(record, name) ? (record[name] ?? null) : null;
    if (name === '__proto__') Object.defineProperty(picked, name, { value, enumerable: true });
    else picked[name] = value;
  }
  return picked;
}

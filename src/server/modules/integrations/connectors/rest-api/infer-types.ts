/**
 * Infers warehouse column types from a sample of JSON records (REST API and e-mail/JSON sources
 * have no declared schema). Each property gets the narrowest type that fits every non-null sample
 * value; disagreeing samples fall back to Text so no value is lost when loading.
 */
import type { ColumnType } from '../../../../../shared/tables';
import type { DiscoveredProperty } from '../types';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

interface Inferred {
  type: ColumnType;
  format?: string;
}

export function inferValueType(value: unknown): Inferred | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return { type: 'Number', format: Number.isInteger(value) ? 'int64' : 'double' };
  if (typeof value === 'bigint') return { type: 'Number', format: 'int64' };
  if (typeof value === 'boolean') return { type: 'Boolean' };
  if (Array.isArray(value)) return { type: 'Array' };
  if (typeof value === 'object') return { type: 'Json' };
  const text = String(value);
  if (ISO_DATE.test(text)) return { type: 'Date', format: 'date' };
  if (ISO_DATE_TIME.test(text)) return { type: 'DateTime', format: 'date-time' };
  return { type: 'Text' };
}

function merge(a: Inferred, b: Inferred): Inferred {
  if (a.type === b.type) {
    if (a.format === b.format) return a;
    // int64 + double is a double; other format mixes keep the type without a format.
    return a.type === 'Number' ? { type: 'Number', format: 'double' } : { type: a.type };
  }
  const pair = new Set([a.type, b.type]);
  if (pair.has('Date') && pair.has('DateTime')) return { type: 'DateTime', format: 'date-time' };
  return { type: 'Text' };
}

export interface InferOptions {
  primaryKey: string[];
  cursorField: string | null;
}

/** Properties in first-seen order; primary key and cursor fields exist even if no sample had them. */
export function inferProperties(records: Record<string, unknown>[], options: InferOptions): DiscoveredProperty[] {
  const types = new Map<string, Inferred | null>();
  for (const record of records) {
    for (const [name, value] of Object.entries(record)) {
      const seen = types.get(name) ?? null;
      const next = inferValueType(value);
      types.set(name, next === null ? seen : seen === null ? next : merge(seen, next));
    }
  }
  for (const name of [...options.primaryKey, ...(options.cursorField ? [options.cursorField] : [])]) {
    if (!types.has(name)) types.set(name, null);
  }
  return [...types].map(([name, inferred]) => {
    const property: DiscoveredProperty = {
      name,
      type: inferred?.type ?? 'Text',
      isPrimaryKey: options.primaryKey.includes(name),
      isCursor: options.cursorField === name,
    };
    if (inferred?.format) property.format = inferred.format;
    return property;
  });
}

/** Keeps only the selected properties of a record (all of them when none are named). */
export function pickProperties(record: Record<string, unknown>, properties: string[]): Record<string, unknown> {
  if (properties.length === 0) return record;
  const picked: Record<string, unknown> = {};
  for (const name of properties) picked[name] = record[name] ?? null;
  return picked;
}

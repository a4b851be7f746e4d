/**
 * The checks a webhook body passes before anything is written or locked (WEBHOOK_LIMITS): number of
 * records, fields per record and per call, fields the dataset does not have yet, field names,
 * nesting and text length. A body over any limit is refused whole with a 400 naming the limit, so a
 * hostile body costs a walk over what was already parsed, never the dataset's lock.
 */
import { INTEGRATION_MESSAGES } from '../../../shared/integrations';
import { LIMITS, WEBHOOK_LIMITS } from '../../../shared/limits';
import { badInput } from '../../errors';
import { ExactNumber } from '../../exact-values/json';
import { ROW_ID } from './physical';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ExactNumber);

/** Column names are matched without regard to case, as DuckDB does. */
const columnName = (key: string) => key.toLowerCase();

/**
 * Walks one record without recursion: refuses nesting deeper than the limit (the record is level 1)
 * and text values (and nested field names) longer than the limit.
 */
function checkValues(record: Record<string, unknown>, at: number): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: record, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value === 'string') {
      if (value.length > WEBHOOK_LIMITS.maxStringLength) {
        throw badInput(
          `Record ${at} has a text value of ${value.length} characters; ` +
            `values can be at most ${WEBHOOK_LIMITS.maxStringLength} characters.`,
        );
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > WEBHOOK_LIMITS.maxDepth) {
      throw badInput(
        `Record ${at} is nested too deeply; records can be nested at most ${WEBHOOK_LIMITS.maxDepth} levels.`,
      );
    }
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key.length > WEBHOOK_LIMITS.maxStringLength) {
        throw badInput(
          `Record ${at} has a field name of ${key.length} characters; ` +
            `values can be at most ${WEBHOOK_LIMITS.maxStringLength} characters.`,
        );
      }
      stack.push({ value: item, depth: depth + 1 });
    }
  }
}

/** The fields of one record: how many, and their names (each becomes a column). */
function checkFields(record: Record<string, unknown>, at: number): string[] {
  const keys = Object.keys(record);
  if (keys.length > WEBHOOK_LIMITS.maxKeysPerRecord) {
    throw badInput(
      `Record ${at} has ${keys.length} fields; a record can have at most ${WEBHOOK_LIMITS.maxKeysPerRecord}.`,
    );
  }
  for (const key of keys) {
    if (key.trim() === '') throw badInput(`Record ${at} has a field without a name.`);
    if (key.length > WEBHOOK_LIMITS.maxKeyLength) {
      throw badInput(
        `Record ${at} has a field name of ${key.length} characters; ` +
          `field names can be at most ${WEBHOOK_LIMITS.maxKeyLength}.`,
      );
    }
    if (columnName(key) === ROW_ID) throw badInput(`Record ${at} has a field named ${ROW_ID}, which is reserved.`);
  }
  const seen = new Map<string, string>();
  for (const key of keys) {
    const other = seen.get(columnName(key));
    if (other !== undefined) {
      throw badInput(
        `Record ${at} has the fields "${other}" and "${key}", which name the same column: ` +
          'column names do not differ by case.',
      );
    }
    seen.set(columnName(key), key);
  }
  return keys;
}

/**
 * The records with each field under one spelling per column (names match without regard to case):
 * the dataset's own, else the first this call used. A warehouse table cannot hold "Name" and "name"
 * side by side, and both mean the same column here.
 */
function withColumnSpellings(
  records: Record<string, unknown>[],
  columns: readonly string[],
): Record<string, unknown>[] {
  const spelling = new Map(columns.map((c) => [columnName(c), c]));
  for (const record of records) {
    for (const key of Object.keys(record)) if (!spelling.has(columnName(key))) spelling.set(columnName(key), key);
  }
  return records.map((record) => {
    const keys = Object.keys(record);
    if (keys.every((key) => spelling.get(columnName(key)) === key)) return record;
    // Own properties only (a field named __proto__ stays data).
    return Object.fromEntries(keys.map((key) => [spelling.get(columnName(key)) ?? key, record[key]]));
  });
}

/**
 * The records of a body, or a 400 naming what is wrong. `columns` are the dataset's columns as last
 * recorded (no lock is taken to read them); the write checks the table itself again.
 */
export function checkWebhookBody(body: unknown, columns: readonly string[]): Record<string, unknown>[] {
  const records = Array.isArray(body) ? body : [body];
  if (records.length === 0 || !records.every(isRecord)) throw badInput(INTEGRATION_MESSAGES.badWebhookBody);
  if (records.length > WEBHOOK_LIMITS.maxRecords) {
    throw badInput(
      `The body holds ${records.length} records; a webhook call can carry at most ${WEBHOOK_LIMITS.maxRecords}. ` +
        'Send them in several calls.',
    );
  }
  const fields = new Set<string>();
  records.forEach((record, i) => {
    for (const key of checkFields(record, i + 1)) fields.add(columnName(key));
    if (fields.size > LIMITS.maxColumns) {
      throw badInput(
        `The records have more than ${LIMITS.maxColumns} different fields; a dataset can have at most ` +
          `${LIMITS.maxColumns} columns.`,
      );
    }
    checkValues(record, i + 1);
  });
  if (fields.size === 0) throw badInput('The records have no fields.');
  refuseNewColumns(fields, columns);
  return withColumnSpellings(records, columns);
}

/** Refuses fields that would take the dataset past the column limit. */
export function refuseNewColumns(fields: Iterable<string>, columns: readonly string[]): void {
  const have = new Set(columns.map(columnName));
  let added = 0;
  for (const field of fields) if (!have.has(columnName(field))) added += 1;
  if (have.size + added > LIMITS.maxColumns) {
    throw badInput(
      `The records add ${added} new fields to the ${have.size} columns of the dataset; ` +
        `a dataset can have at most ${LIMITS.maxColumns} columns.`,
    );
  }
}

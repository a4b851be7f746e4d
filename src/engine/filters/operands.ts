/**
 * Turns a filter's value into a bound parameter of the column's type, or a ModelError saying in
 * plain words what is wrong with it.
 *
 * Numbers are read exactly (values/exact-number.ts), never through a JS double. On a column whose
 * SQL type is known to be exact (integers, DECIMAL) the value is bound in that very type, so the
 * database compares exactly and never falls back to doubles; a value the type cannot hold (1.5 on
 * a BIGINT, 1.005 on a DECIMAL(10,2), 1e30 on a BIGINT) becomes a gap between two of its values.
 */
import type { ColumnType } from '../../shared/tables';
import { ModelError, type ModelErrorLocation } from '../errors';
import type { FilterValue, RelationColumn } from '../ir';
import type { Expr, SqlType } from '../sql-ast';
import type { SqlValue } from '../sql';
import { FRACTION_DIGITS_OF, parseDateTimeValue, parseDateValue } from '../values/dates';
import { ceilingAt, exactText, normalized, parseExactNumber, type ExactNumber } from '../values/exact-number';
import { numericType, type ExactNumericType } from '../values/numeric-types';
import { parseBooleanValue } from '../values/scalars';
import { shownOperandText } from '../values/shown-text';

/**
 * One end of a set of the column's values. `value`: a bound value. Past the type's range:
 * `above-max` (no value reaches it), `below-min` (every value is past it).
 */
export type Edge = { kind: 'value'; expr: Expr } | { kind: 'above-max' } | { kind: 'below-min' };

/**
 * What a filter value stands for among the column's values: exactly one value; the values in
 * `[start, end)` (a date-only value on a DateTime column: the whole day); or none at all, a gap
 * just below `at` (a number the column's type cannot hold: every value is either below it or at
 * least `at`).
 */
export type Operand =
  { kind: 'exact'; expr: Expr } | { kind: 'range'; start: Edge; end: Edge } | { kind: 'gap'; at: Edge };

export interface OperandContext {
  /** `Filter on "amount"`, the start of every message about this filter. */
  subject: string;
  location: ModelErrorLocation;
}

const exact = (expr: Expr): Operand => ({ kind: 'exact', expr });
const valueEdge = (expr: Expr): Edge => ({ kind: 'value', expr });

/** Quoted for a message, cut short so a pasted novel does not become the error. */
function shown(value: string | number | boolean): string {
  const text = String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/** Text keeps spaces (a search for ' ' is real); for other types blank text means no value. */
function isBlank(value: string | number | boolean, type: ColumnType): boolean {
  return typeof value === 'string' && (type === 'Text' ? value === '' : value.trim() === '');
}

const INT64: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const INT128: [bigint, bigint] = [-(2n ** 127n), 2n ** 127n - 1n];
const SAFE: [bigint, bigint] = [BigInt(Number.MIN_SAFE_INTEGER), BigInt(Number.MAX_SAFE_INTEGER)];
const within = (value: bigint, [min, max]: [bigint, bigint]): boolean => value >= min && value <= max;

/**
 * An exact number as a value to bind: a JS number only when it is a safe integer (exact, and the
 * simplest to read in Show SQL), a BigInt for other 128-bit integers, else its exact text; the
 * SQL casts it to `type` in every case.
 */
export function exactParam(number: ExactNumber, type: SqlType): Expr {
  const { unscaled, scale } = number;
  let value: SqlValue;
  if (scale === 0 && within(unscaled, SAFE)) value = Number(unscaled);
  else if (scale === 0 && within(unscaled, INT128)) value = unscaled;
  else value = exactText(number);
  return { kind: 'param', value, type };
}

/** A number on a column of an exact type: that value in the type, or the gap where it would be. */
function inExactType(number: ExactNumber, type: ExactNumericType): Operand {
  // The smallest value of the type's grid at or above the number: the number itself when on the grid.
  const at = ceilingAt(number, type.scale);
  if (type.max !== null && at > type.max) return { kind: 'gap', at: { kind: 'above-max' } };
  if (type.min !== null && at < type.min) return { kind: 'gap', at: { kind: 'below-min' } };
  if (number.scale <= type.scale) return exact(exactParam(number, type.sqlType));
  return { kind: 'gap', at: valueEdge(exactParam(normalized(at, type.scale), type.sqlType)) };
}

/**
 * A number on a column whose type is approximate (DOUBLE, FLOAT: compared as doubles whatever is
 * bound) or not known (a function column's result, a relation described without SQL types): whole
 * numbers a BIGINT holds as BIGINT, which compares exactly with every integer column, others as
 * DOUBLE, which every numeric column compares with without a conversion error.
 */
function withoutExactType(number: ExactNumber): Operand {
  if (number.scale === 0 && within(number.unscaled, INT64)) return exact(exactParam(number, 'bigint'));
  return exact({ kind: 'param', value: Number(exactText(number)), type: 'double' });
}

/**
 * The float a REAL column holds for a value, when the value is that float's shortest text (what
 * the grid shows: `0.1` for the float nearest 0.1, which as a double is 0.10000000149011612), so
 * `= 0.1` finds it and `> 0.1` does not; null for any other value, compared as a double.
 */
function shownFloat(number: ExactNumber): number | null {
  const value = Number(exactText(number));
  const float = Math.fround(value);
  if (!Number.isFinite(float) || (float === 0 && value !== 0)) return null;
  for (let digits = 1; digits <= 9; digits += 1) {
    const shortest = Number(float.toPrecision(digits));
    if (Math.fround(shortest) === float) return shortest === value ? value : null;
  }
  return null;
}

function numberOperand(column: Pick<RelationColumn, 'sqlType'>, number: ExactNumber): Operand {
  const type = numericType(column.sqlType);
  if (type?.kind === 'exact') return inExactType(number, type);
  const float = type?.float ? shownFloat(number) : null;
  if (float !== null) return exact({ kind: 'param', value: Object.is(float, -0) ? 0 : float, type: 'float' });
  return withoutExactType(number);
}

/** The filter value `value` for `column` (its type, and its SQL type when known). */
export function toOperand(
  column: Pick<RelationColumn, 'type' | 'sqlType'>,
  value: FilterValue,
  context: OperandContext,
): Operand {
  const { subject, location } = context;
  const type = column.type;
  if (value === null || value === undefined || isBlank(value, type))
    throw new ModelError(`${subject}: please enter a value`, 'missing_value', location);
  switch (type) {
    case 'Text':
      return exact({ kind: 'param', value: shownOperandText(String(value), column.sqlType), type: 'text' });
    case 'Array':
    case 'Json':
      // Array and Json are only searched (Contains), as text.
      return exact({ kind: 'param', value: String(value), type: 'text' });
    case 'Number': {
      const number = typeof value === 'boolean' ? null : parseExactNumber(value);
      if (!number) throw new ModelError(`${subject}: ${shown(value)} is not a number`, 'invalid_number', location);
      return numberOperand(column, number);
    }
    case 'Boolean': {
      const flag = parseBooleanValue(value);
      if (flag === null) {
        throw new ModelError(`${subject}: ${shown(value)} is not true or false`, 'invalid_boolean', location);
      }
      return exact({ kind: 'param', value: flag, type: 'boolean' });
    }
    case 'Date': {
      const date = typeof value === 'string' ? parseDateValue(value) : null;
      if (!date) {
        throw new ModelError(`${subject}: ${shown(value)} is not a date (use YYYY-MM-DD)`, 'invalid_date', location);
      }
      return exact({ kind: 'param', value: date, type: 'date' });
    }
    case 'DateTime': {
      // Compared in the column's own precision: a TIMESTAMP holds microseconds, TIMESTAMP_NS nanoseconds.
      const digits = FRACTION_DIGITS_OF[column.sqlType?.toUpperCase() ?? ''] ?? 6;
      const type: SqlType = digits > 6 ? 'timestamp_ns' : 'timestamp';
      const parsed = typeof value === 'string' ? parseDateTimeValue(value, digits) : null;
      if (!parsed) {
        throw new ModelError(
          `${subject}: ${shown(value)} is not a date and time (use ISO 8601, e.g. 2024-03-01T14:30:00Z)`,
          'invalid_datetime',
          location,
        );
      }
      if (parsed.kind === 'instant') return exact({ kind: 'param', value: parsed.timestamp, type });
      if (parsed.kind === 'gap') return { kind: 'gap', at: valueEdge({ kind: 'param', value: parsed.ceiling, type }) };
      return {
        kind: 'range',
        start: valueEdge({ kind: 'param', value: parsed.start, type: 'timestamp' }),
        end: valueEdge({ kind: 'param', value: parsed.end, type: 'timestamp' }),
      };
    }
  }
}

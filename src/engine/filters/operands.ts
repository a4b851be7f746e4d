/**
 * Turns a filter's value into a bound parameter of the column's type, or a ModelError saying in
 * plain words what is wrong with it.
 */
import type { ColumnType } from '../../shared/tables';
import { ModelError, type ModelErrorLocation } from '../errors';
import type { FilterValue } from '../ir';
import type { Expr } from '../sql-ast';
import { parseDateTimeValue, parseDateValue } from '../values/dates';
import { parseBooleanValue, parseNumberValue } from '../values/scalars';

/** An exact value, or (for a date-only value on a DateTime column) the whole day `[start, end)`. */
export type Operand = { kind: 'exact'; expr: Expr } | { kind: 'day'; start: Expr; end: Expr };

export interface OperandContext {
  /** `Filter on "amount"`, the start of every message about this filter. */
  subject: string;
  location: ModelErrorLocation;
}

const exact = (expr: Expr): Operand => ({ kind: 'exact', expr });

/** Quoted for a message, cut short so a pasted novel does not become the error. */
function shown(value: string | number | boolean): string {
  const text = String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/** Text keeps spaces (a search for ' ' is real); for other types blank text means no value. */
function isBlank(value: string | number | boolean, type: ColumnType): boolean {
  return typeof value === 'string' && (type === 'Text' ? value === '' : value.trim() === '');
}

export function toOperand(type: ColumnType, value: FilterValue, context: OperandContext): Operand {
  const { subject, location } = context;
  if (value === null || value === undefined || isBlank(value, type))
    throw new ModelError(`${subject}: please enter a value`, 'missing_value', location);
  switch (type) {
    case 'Text':
    case 'Array':
    case 'Json':
      // Array and Json are only searched (Contains), as text.
      return exact({ kind: 'param', value: String(value), type: 'text' });
    case 'Number': {
      const number = parseNumberValue(value);
      if (!number) throw new ModelError(`${subject}: ${shown(value)} is not a number`, 'invalid_number', location);
      return exact({ kind: 'param', value: number.value, type: number.integer ? 'bigint' : 'double' });
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
      const parsed = typeof value === 'string' ? parseDateTimeValue(value) : null;
      if (!parsed) {
        throw new ModelError(
          `${subject}: ${shown(value)} is not a date and time (use ISO 8601, e.g. 2024-03-01T14:30:00Z)`,
          'invalid_datetime',
          location,
        );
      }
      if (parsed.kind === 'instant') return exact({ kind: 'param', value: parsed.timestamp, type: 'timestamp' });
      return {
        kind: 'day',
        start: { kind: 'param', value: parsed.start, type: 'timestamp' },
        end: { kind: 'param', value: parsed.end, type: 'timestamp' },
      };
    }
  }
}

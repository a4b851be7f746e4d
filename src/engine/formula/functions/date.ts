/**
 * Date functions. Times are UTC, like DateTime columns. Grains are text in quotes: 'second',
 * 'minute', 'hour', 'day', 'week' (from Monday), 'month', 'quarter', 'year'. A Date stays a Date
 * where the result is a whole day (DATE_TRUNC, DATE_ADD by days or longer); WEEKDAY is 1 for
 * Monday to 7 for Sunday; DATE(y, m, d) of a day that does not exist is empty, not an error.
 */
import type { DateGrain } from '../../dialect';
import type { DatePart, Expr } from '../../sql-ast';
import { castTo, coerce } from '../types';
import type { CallContext, FormulaFunction, FunctionResult } from './spec';
import { call, wholeNumber } from './text';

const TIME_OF_DAY_GRAINS: readonly DateGrain[] = ['second', 'minute', 'hour'];

/** A Date or DateTime argument; a NULL is taken as a DateTime. */
function dateArg(context: CallContext, index: number): { isDate: boolean; expr: Expr } {
  const arg = context.arg(index, 'Date', 'DateTime');
  return arg.type === 'Date' ? { isDate: true, expr: arg.expr } : { isDate: false, expr: coerce(arg, 'DateTime') };
}

/** A whole-day result of a Date argument stays a Date; anything finer is a DateTime. */
function dateResult(isDate: boolean, grain: DateGrain, expr: Expr): FunctionResult {
  if (isDate && !TIME_OF_DAY_GRAINS.includes(grain)) {
    return { type: 'Date', expr: castTo(expr, 'date') };
  }
  return { type: 'DateTime', expr };
}

function datePart(name: string, part: DatePart): FormulaFunction {
  return {
    name,
    category: 'Date',
    minArgs: 1,
    maxArgs: 1,
    returns: 'Number',
    compile(context) {
      // HOUR needs a time of day; a Date has none.
      const expr = part === 'hour' ? context.expr(0, 'DateTime') : dateArg(context, 0).expr;
      return { type: 'Number', expr: { kind: 'date-part', part, expr } };
    },
  };
}

export const DATE_FUNCTIONS: readonly FormulaFunction[] = [
  {
    name: 'TODAY',
    category: 'Date',
    minArgs: 0,
    maxArgs: 0,
    returns: 'Date',
    compile: () => ({ type: 'Date', expr: call('current_date') }),
  },
  {
    name: 'NOW',
    category: 'Date',
    minArgs: 0,
    maxArgs: 0,
    returns: 'DateTime',
    compile: () => ({ type: 'DateTime', expr: call('current_timestamp') }),
  },
  {
    name: 'DATE_TRUNC',
    category: 'Date',
    minArgs: 2,
    maxArgs: 2,
    returns: 'varies',
    compile(context) {
      const grain = context.grain(0);
      const { isDate, expr } = dateArg(context, 1);
      return dateResult(isDate, grain, { kind: 'date-trunc', expr, grain });
    },
  },
  datePart('YEAR', 'year'),
  datePart('QUARTER', 'quarter'),
  datePart('MONTH', 'month'),
  datePart('DAY', 'day'),
  datePart('WEEKDAY', 'isodow'),
  datePart('HOUR', 'hour'),
  {
    name: 'DATE_ADD',
    category: 'Date',
    minArgs: 3,
    maxArgs: 3,
    returns: 'varies',
    compile(context) {
      const { isDate, expr } = dateArg(context, 0);
      const amount = wholeNumber(context, 1);
      const grain = context.grain(2);
      return dateResult(isDate, grain, { kind: 'date-add', expr, amount, grain });
    },
  },
  {
    name: 'DATE_DIFF',
    category: 'Date',
    minArgs: 3,
    maxArgs: 3,
    returns: 'Number',
    compile(context) {
      const grain = context.grain(0);
      const { type, exprs } = context.same([1, 2], ['Date', 'DateTime']);
      // Between two NULLs there is nothing to count (and no type to pick date_diff by).
      if (type === 'Null') return { type: 'Number', expr: { kind: 'param', value: null, type: 'double' } };
      let [start, end] = exprs as [Expr, Expr];
      if (grain === 'week') {
        // Mondays crossed: DuckDB's week difference is whole days / 7 (Sunday to Monday is 0), so
        // count it between the two weeks' Mondays, where the days are a multiple of 7.
        start = { kind: 'date-trunc', expr: start, grain };
        end = { kind: 'date-trunc', expr: end, grain };
      }
      return { type: 'Number', expr: { kind: 'date-diff', grain, start, end } };
    },
  },
  {
    name: 'DATE',
    category: 'Date',
    minArgs: 3,
    maxArgs: 3,
    returns: 'Date',
    compile(context) {
      const dash: Expr = { kind: 'constant', value: '-' };
      const parts = [wholeNumber(context, 0), dash, wholeNumber(context, 1), dash, wholeNumber(context, 2)];
      // A day that does not exist (February 30) gives null; make_date would stop the query.
      return { type: 'Date', expr: { kind: 'try-cast', expr: call('concat', ...parts), type: 'date' } };
    },
  },
];

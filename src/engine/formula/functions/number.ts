/**
 * Number functions. Where SQL would stop the whole query with an error for one row (MOD by zero,
 * the square root of a negative number), the result is empty (null) instead, like `/` by zero.
 */
import type { Expr, SqlFunctionName } from '../../sql-ast';
import { nullOfTheOtherType, tryCastTo } from '../types';
import type { FormulaFunction } from './spec';
import { call } from './text';

/** The divisor with 0 made null, so dividing by zero gives null rather than an error or infinity. */
export const nonZero = (expr: Expr): Expr => ({ kind: 'nullif', expr, value: { kind: 'constant', value: 0 } });

/**
 * The number made exact for rounding: `x + CAST(0 AS DECIMAL(1,0))`. An integer becomes a DECIMAL
 * wide enough for it (BIGINT: DECIMAL(20,0)), a DECIMAL stays one and a DOUBLE stays a DOUBLE.
 * DuckDB's floor and ceil of an integer answer in DOUBLE (FLOOR(9007199254740993) would be ...992),
 * its round of a BIGINT to tens wraps past the BIGINT's range (9223372036854775807 to
 * -9223372036854775800), and abs of the smallest BIGINT stops the query; on a DECIMAL all are exact.
 * (A HUGEINT of more than 38 digits does not fit a DECIMAL: DuckDB's overflow error.)
 */
export const exactForRounding = (expr: Expr): Expr => ({
  kind: 'arithmetic',
  op: '+',
  left: expr,
  right: { kind: 'cast', expr: { kind: 'constant', value: 0 }, type: 'decimal(1,0)' },
});

function numberToNumber(name: string, sqlName: SqlFunctionName): FormulaFunction {
  return {
    name,
    category: 'Number',
    minArgs: 1,
    maxArgs: 1,
    returns: 'Number',
    compile: (context) => ({ type: 'Number', expr: call(sqlName, exactForRounding(context.expr(0, 'Number'))) }),
  };
}

function extreme(name: string, sqlName: 'least' | 'greatest'): FormulaFunction {
  return {
    name,
    category: 'Number',
    minArgs: 2,
    maxArgs: Infinity,
    returns: 'varies',
    compile(context) {
      const indexes = context.args.map((_, index) => index);
      const { type, exprs } = context.same(indexes, ['Number', 'Text', 'Date', 'DateTime']);
      return { type, expr: call(sqlName, ...exprs) };
    },
  };
}

export const NUMBER_FUNCTIONS: readonly FormulaFunction[] = [
  {
    name: 'ROUND',
    category: 'Number',
    minArgs: 1,
    maxArgs: 2,
    returns: 'Number',
    compile(context) {
      const value = context.expr(0, 'Number');
      // round(x) keeps an integer as it is; DuckDB rounds a DECIMAL or a DOUBLE in its own type.
      if (context.args.length === 1) return { type: 'Number', expr: call('round', value) };
      // DuckDB's round takes its digits as an INTEGER, not a BIGINT.
      const digits = tryCastTo(context.expr(1, 'Number'), 'integer');
      // Digits that read no column: round exactly (a BIGINT to tens as a DECIMAL, which cannot
      // wrap). DuckDB rounds a DECIMAL only by constant digits, so digits from a column round the
      // value in its own type, as before (a BIGINT may then still wrap at its limits).
      const exact = context.isConstant(1) ? exactForRounding(value) : value;
      return { type: 'Number', expr: call('round', exact, digits) };
    },
  },
  numberToNumber('FLOOR', 'floor'),
  numberToNumber('CEIL', 'ceil'),
  numberToNumber('ABS', 'abs'),
  {
    name: 'POWER',
    category: 'Number',
    minArgs: 2,
    maxArgs: 2,
    returns: 'Number',
    compile: (context) => ({
      type: 'Number',
      expr: call('power', context.expr(0, 'Number'), context.expr(1, 'Number')),
    }),
  },
  {
    name: 'SQRT',
    category: 'Number',
    minArgs: 1,
    maxArgs: 1,
    returns: 'Number',
    compile(context) {
      const value = context.expr(0, 'Number');
      const when: Expr = { kind: 'compare', op: '>=', left: value, right: { kind: 'constant', value: 0 } };
      return { type: 'Number', expr: { kind: 'case', whens: [{ when, then: call('sqrt', value) }], else: null } };
    },
  },
  {
    name: 'MOD',
    category: 'Number',
    minArgs: 2,
    maxArgs: 2,
    returns: 'Number',
    compile(context) {
      const [left, right] = nullOfTheOtherType(context.arg(0, 'Number'), context.arg(1, 'Number'));
      return { type: 'Number', expr: { kind: 'arithmetic', op: '%', left, right: nonZero(right) } };
    },
  },
  extreme('LEAST', 'least'),
  extreme('GREATEST', 'greatest'),
];

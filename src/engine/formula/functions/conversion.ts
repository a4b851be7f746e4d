/**
 * Conversions. Text that does not read as the target type (TO_NUMBER('abc'), TO_DATE('2024-13-01'))
 * gives an empty value, never an error; dates are read as ISO text (YYYY-MM-DD[ HH:MM:SS]), an era
 * (`0044-03-15 BC`) in ISO years, a UTC offset converted to UTC (date-text.ts).
 * TO_BOOLEAN reads 'true'/'false' (also 't', 'yes', '1', ...) and a Number as "not zero".
 */
import type { ColumnType } from '../../../shared/tables';
import type { Expr, SqlType } from '../../sql-ast';
import { castTo, coerce, textOf, type Typed } from '../types';
import { dateFromText, dateTimeFromText } from './date-text';
import { numberFromText } from './number-text';
import type { FormulaFunction } from './spec';

type Converter = (arg: Typed) => Expr;

/**
 * A conversion to `target`: from the same type unchanged, from the types in `from` by the given
 * converter, from Text otherwise by TRY_CAST.
 */
function conversion(
  name: string,
  target: ColumnType,
  sqlType: SqlType,
  from: Partial<Record<ColumnType, Converter>>,
): FormulaFunction {
  const accepted = ['Text', target, ...Object.keys(from)] as ColumnType[];
  return {
    name,
    category: 'Conversion',
    minArgs: 1,
    maxArgs: 1,
    returns: target,
    compile(context) {
      const arg = context.arg(0, ...new Set(accepted));
      if (arg.type === 'Null' || arg.type === target) return { type: target, expr: coerce(arg, target) };
      const convert = from[arg.type];
      const expr: Expr = convert ? convert(arg) : { kind: 'try-cast', expr: arg.expr, type: sqlType };
      return { type: target, expr };
    },
  };
}

const cast =
  (type: SqlType): Converter =>
  (arg) =>
    castTo(arg.expr, type);

export const CONVERSION_FUNCTIONS: readonly FormulaFunction[] = [
  {
    name: 'TO_TEXT',
    category: 'Conversion',
    minArgs: 1,
    maxArgs: 1,
    returns: 'Text',
    compile: (context) => ({ type: 'Text', expr: textOf(context.args[0]!) }),
  },
  conversion('TO_NUMBER', 'Number', 'double', {
    Boolean: cast('double'),
    Text: (arg) => numberFromText(arg.expr),
  }),
  conversion('TO_DATE', 'Date', 'date', { DateTime: cast('date'), Text: (arg) => dateFromText(arg.expr) }),
  conversion('TO_DATETIME', 'DateTime', 'timestamp', {
    Date: cast('timestamp'),
    Text: (arg) => dateTimeFromText(arg.expr),
  }),
  conversion('TO_BOOLEAN', 'Boolean', 'boolean', {
    Number: (arg) => ({ kind: 'compare', op: '<>', left: arg.expr, right: { kind: 'constant', value: 0 } }),
  }),
];

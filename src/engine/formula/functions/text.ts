/**
 * Text functions. Positions and counts are whole numbers (a fraction is rounded) and start at 1.
 * CONTAINS, STARTS_WITH and ENDS_WITH ignore case, like the Contains filter. CONCAT (and `&`)
 * join any values as the text a user reads; an empty value adds nothing.
 */
import type { Expr, SqlFunctionName } from '../../sql-ast';
import { textOf, tryCastTo, type Typed } from '../types';
import type { CallContext, FormulaFunction, FunctionResult } from './spec';

export const call = (name: SqlFunctionName, ...args: Expr[]): Expr => ({ kind: 'func', name, args });

/** A Number argument as a whole number, for positions and counts; null when it is out of range. */
export function wholeNumber(context: CallContext, index: number): Expr {
  return tryCastTo(context.expr(index, 'Number'), 'bigint');
}

const lower = (expr: Expr): Expr => call('lower', expr);

/** One Text argument to Text. */
function textToText(name: string, sqlName: SqlFunctionName): FormulaFunction {
  return {
    name,
    category: 'Text',
    minArgs: 1,
    maxArgs: 1,
    returns: 'Text',
    compile: (context) => ({ type: 'Text', expr: call(sqlName, context.expr(0, 'Text')) }),
  };
}

/** A case-insensitive test of a text against a part of it. */
function textTest(name: string, build: (text: Expr, part: Expr) => Expr): FormulaFunction {
  return {
    name,
    category: 'Text',
    minArgs: 2,
    maxArgs: 2,
    returns: 'Boolean',
    compile: (context) => ({ type: 'Boolean', expr: build(context.expr(0, 'Text'), context.expr(1, 'Text')) }),
  };
}

export function concatenate(values: readonly Typed[]): FunctionResult {
  return { type: 'Text', expr: call('concat', ...values.map(textOf)) };
}

export const TEXT_FUNCTIONS: readonly FormulaFunction[] = [
  {
    name: 'CONCAT',
    category: 'Text',
    minArgs: 1,
    maxArgs: Infinity,
    returns: 'Text',
    compile: (context) => concatenate(context.args),
  },
  textToText('UPPER', 'upper'),
  textToText('LOWER', 'lower'),
  textToText('TRIM', 'trim'),
  {
    name: 'LENGTH',
    category: 'Text',
    minArgs: 1,
    maxArgs: 1,
    returns: 'Number',
    compile: (context) => ({ type: 'Number', expr: call('length', context.expr(0, 'Text')) }),
  },
  ...(['LEFT', 'RIGHT'] as const).map((name): FormulaFunction => ({
    name,
    category: 'Text',
    minArgs: 2,
    maxArgs: 2,
    returns: 'Text',
    compile: (context) => ({
      type: 'Text',
      expr: call(name === 'LEFT' ? 'left' : 'right', context.expr(0, 'Text'), wholeNumber(context, 1)),
    }),
  })),
  {
    name: 'SUBSTRING',
    category: 'Text',
    minArgs: 2,
    maxArgs: 3,
    returns: 'Text',
    compile(context) {
      const args = [context.expr(0, 'Text'), wholeNumber(context, 1)];
      if (context.args.length === 3) args.push(wholeNumber(context, 2));
      return { type: 'Text', expr: call('substring', ...args) };
    },
  },
  {
    name: 'REPLACE',
    category: 'Text',
    minArgs: 3,
    maxArgs: 3,
    returns: 'Text',
    compile: (context) => ({
      type: 'Text',
      expr: call('replace', context.expr(0, 'Text'), context.expr(1, 'Text'), context.expr(2, 'Text')),
    }),
  },
  textTest('CONTAINS', (haystack, needle) => ({ kind: 'contains', haystack, needle })),
  textTest('STARTS_WITH', (text, part) => call('starts_with', lower(text), lower(part))),
  textTest('ENDS_WITH', (text, part) => call('ends_with', lower(text), lower(part))),
  {
    name: 'SPLIT_PART',
    category: 'Text',
    minArgs: 3,
    maxArgs: 3,
    returns: 'Text',
    compile: (context) => ({
      type: 'Text',
      expr: call('split_part', context.expr(0, 'Text'), context.expr(1, 'Text'), wholeNumber(context, 2)),
    }),
  },
];

/**
 * IF, CASE, COALESCE and ISBLANK. A condition that is empty (null) counts as false, as in SQL's
 * CASE. ISBLANK uses the Empty filter's meaning: null, or '' for Text, [] for Array, JSON null for Json.
 */
import type { Expr } from '../../sql-ast';
import type { FormulaType } from '../types';
import type { FormulaFunction } from './spec';

const isNull = (expr: Expr): Expr => ({ kind: 'is-null', expr, negated: false });

/** `is empty` for each type: never null itself. */
function blank(type: FormulaType, expr: Expr): Expr {
  switch (type) {
    case 'Text':
      return {
        kind: 'or',
        items: [isNull(expr), { kind: 'compare', op: '=', left: expr, right: { kind: 'constant', value: '' } }],
      };
    case 'Array': {
      const length: Expr = { kind: 'array-length', expr };
      return {
        kind: 'or',
        items: [isNull(expr), { kind: 'compare', op: '=', left: length, right: { kind: 'constant', value: 0 } }],
      };
    }
    case 'Json': {
      const text: Expr = { kind: 'text-of', expr, shape: 'json' };
      return {
        kind: 'or',
        items: [isNull(expr), { kind: 'compare', op: '=', left: text, right: { kind: 'constant', value: 'null' } }],
      };
    }
    default:
      return isNull(expr);
  }
}

export const LOGIC_FUNCTIONS: readonly FormulaFunction[] = [
  {
    name: 'IF',
    category: 'Logic',
    minArgs: 3,
    maxArgs: 3,
    returns: 'varies',
    compile(call) {
      const when = call.expr(0, 'Boolean');
      const { type, exprs } = call.same([1, 2]);
      return { type, expr: { kind: 'case', whens: [{ when, then: exprs[0]! }], else: exprs[1]! } };
    },
  },
  {
    name: 'CASE',
    category: 'Logic',
    minArgs: 2,
    maxArgs: Infinity,
    returns: 'varies',
    compile(call) {
      const pairs = Math.floor(call.args.length / 2);
      const valueIndexes = Array.from({ length: pairs }, (_, pair) => pair * 2 + 1);
      const hasElse = call.args.length % 2 === 1;
      if (hasElse) valueIndexes.push(call.args.length - 1);
      const { type, exprs } = call.same(valueIndexes);
      const whens = Array.from({ length: pairs }, (_, pair) => ({
        when: call.expr(pair * 2, 'Boolean'),
        then: exprs[pair]!,
      }));
      return { type, expr: { kind: 'case', whens, else: hasElse ? exprs.at(-1)! : null } };
    },
  },
  {
    name: 'COALESCE',
    category: 'Logic',
    minArgs: 2,
    maxArgs: Infinity,
    returns: 'varies',
    compile(call) {
      const { type, exprs } = call.same(call.args.map((_, index) => index));
      return { type, expr: { kind: 'func', name: 'coalesce', args: exprs } };
    },
  },
  {
    name: 'ISBLANK',
    category: 'Logic',
    minArgs: 1,
    maxArgs: 1,
    returns: 'Boolean',
    compile(call) {
      const arg = call.args[0]!;
      return { type: 'Boolean', expr: blank(arg.type, arg.expr) };
    },
  },
];

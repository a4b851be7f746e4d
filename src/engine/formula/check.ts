/**
 * Type-checks a parsed formula and builds its SQL tree. Every literal becomes a bound parameter,
 * every column comes from the scope, every function from the whitelist; nothing from the text
 * reaches SQL any other way.
 *
 * Operator rules: + - * / % take Numbers (`/` is real division; dividing by zero gives null);
 * dates move with DATE_ADD and DATE_DIFF, not + and -. & joins any values as text. Comparisons
 * need two values of one type (Date and DateTime mix); Booleans only with = and <>; Array and Json
 * not at all; and `= NULL` is refused in favour of ISBLANK, since it is never true.
 */
import type { ColumnType } from '../../shared/tables';
import { exactParam } from '../filters/operands';
import type { CompareOp, Expr } from '../sql-ast';
import { parseExactNumber } from '../values/exact-number';
import type { FormulaAst, Span } from './ast';
import { columnReference } from '../../shared/formula-text';
import { formulaError, positionOf } from './formula-error';
import { findFunction } from './functions';
import { nonZero } from './functions/number';
import { CallContext, type FormulaFunction } from './functions/spec';
import { concatenate } from './functions/text';
import { castTo, coerce, describeTypes, nullOfTheOtherType, unify, type FormulaType, type Typed } from './types';

export interface FormulaScope {
  /** The expression and type of a model column this formula may reference; undefined = unknown column. */
  resolve(columnKey: string): { expr: Expr; type: ColumnType; displayName?: string } | undefined;
}

type Node<K extends FormulaAst['kind']> = Extract<FormulaAst, { kind: K }>;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** DuckDB's DECIMAL holds 38 digits. */
const DECIMAL_DIGITS = 38;
/**
 * At most 18 digits after the point: DuckDB adds, subtracts and compares decimals at the larger
 * scale within 38 digits, so with 18 a BIGINT (19 digits) still fits; a literal of 30 fraction
 * digits would leave 8 for the other side and stop the query with an overflow.
 */
const MAX_LITERAL_SCALE = 18;

/**
 * A number literal, exactly as written: a safe whole number (up to 2^53) as BIGINT; a larger whole
 * number, or one with a fraction, as the DECIMAL of its digits (`9007199254740993` as
 * DECIMAL(16,0), `0.1` as DECIMAL(1,1)), so arithmetic, comparisons and text keep every digit,
 * `[big] - 9007199254740992` cannot overflow a BIGINT, and next to a DOUBLE it is that double as
 * before. A literal written with an exponent
 * (`1e18`) that is not a safe whole number, one of more than 38 digits or more than 18 after the
 * point is a DOUBLE: scientific notation is approximate, and `1e18 * 100` must not overflow a
 * BIGINT and stop the query.
 * `literal` keeps the exact value for comparisons.
 */
function numberLiteral(node: Node<'number'>, span: Span): Typed {
  const literal = parseExactNumber(node.text) ?? undefined;
  const typed = (expr: Expr): Typed => ({ type: 'Number', expr, span, ...(literal ? { literal } : {}) });
  if (Number.isSafeInteger(node.value) && literal?.scale === 0) return typed(exactParam(literal, 'bigint'));
  if (!literal || /[eE]/.test(node.text)) return typed({ kind: 'param', value: node.value, type: 'double' });
  const digits = (literal.unscaled < 0n ? -literal.unscaled : literal.unscaled).toString().length;
  const precision = Math.max(digits, literal.scale, 1);
  if (precision > DECIMAL_DIGITS || literal.scale > MAX_LITERAL_SCALE) {
    return typed({ kind: 'param', value: node.value, type: 'double' });
  }
  return typed(exactParam(literal, `decimal(${precision},${literal.scale})`));
}

/**
 * A side of a comparison: a whole literal a BIGINT holds is compared as that BIGINT, every digit
 * (`[id] = 9007199254740993` is not the double ...992); anything else as it is.
 */
function comparedAs(value: Typed, type: FormulaType): Expr {
  const exact = value.literal;
  if (exact && exact.scale === 0 && exact.unscaled >= INT64_MIN && exact.unscaled <= INT64_MAX) {
    return exactParam(exact, 'bigint');
  }
  return coerce(value, type);
}

const COMPARABLE: readonly FormulaType[] = ['Text', 'Number', 'Date', 'DateTime', 'Boolean', 'Null'];

const typeError = (message: string, span: Span): Error => formulaError(message, 'formula_type', span);

function arityText(fn: FormulaFunction): string {
  const plural = (count: number): string => `${count} argument${count === 1 ? '' : 's'}`;
  if (fn.maxArgs === Infinity) return `at least ${plural(fn.minArgs)}`;
  if (fn.minArgs === fn.maxArgs) return fn.minArgs === 0 ? 'no arguments' : plural(fn.minArgs);
  return `${fn.minArgs} ${fn.maxArgs === fn.minArgs + 1 ? 'or' : 'to'} ${plural(fn.maxArgs)}`;
}

/** The operands of a left-grouped chain of one operator (`a & b & c`), in order, without recursion. */
function chain(node: Node<'binary'>): FormulaAst[] {
  const operands: FormulaAst[] = [node.right];
  let left = node.left;
  while (left.kind === 'binary' && left.op === node.op) {
    operands.push(left.right);
    left = left.left;
  }
  operands.push(left);
  return operands.reverse();
}

export class FormulaChecker {
  constructor(private readonly scope: FormulaScope) {}

  check(node: FormulaAst): Typed {
    const span = { start: node.start, end: node.end };
    switch (node.kind) {
      case 'number':
        return numberLiteral(node, span);
      case 'text':
        return { type: 'Text', expr: { kind: 'param', value: node.value, type: 'text' }, span };
      case 'boolean':
        return { type: 'Boolean', expr: { kind: 'param', value: node.value, type: 'boolean' }, span };
      case 'null':
        return { type: 'Null', expr: { kind: 'param', value: null, type: 'text' }, span };
      case 'column':
        return this.column(node, span);
      case 'unary':
        return this.unary(node, span);
      case 'binary':
        return this.binary(node, span);
      case 'call':
        return this.call(node, span);
    }
  }

  private column(node: Node<'column'>, span: Span): Typed {
    const column = this.scope.resolve(node.key);
    if (!column) {
      throw formulaError(`Unknown column ${columnReference(node.key)} at ${positionOf(span)}`, 'unknown_column', span);
    }
    // Text columns may be UUID, ENUM, ...: text functions and comparisons work on their text.
    const expr: Expr = column.type === 'Text' ? { kind: 'text-of', expr: column.expr, shape: 'scalar' } : column.expr;
    return { type: column.type, expr, span };
  }

  private expect(value: Typed, type: ColumnType, what: string): Expr {
    if (unify(value.type, type) !== type) {
      throw typeError(`${what} expects ${describeTypes([type])}, got ${value.type}`, value.span);
    }
    return coerce(value, type);
  }

  private unary(node: Node<'unary'>, span: Span): Typed {
    const operand = this.check(node.operand);
    if (node.op === 'NOT')
      return { type: 'Boolean', expr: { kind: 'not', expr: this.expect(operand, 'Boolean', 'NOT') }, span };
    return { type: 'Number', expr: { kind: 'negate', expr: this.expect(operand, 'Number', '"-"') }, span };
  }

  private binary(node: Node<'binary'>, span: Span): Typed {
    const op = node.op;
    if (op === 'AND' || op === 'OR') {
      const items = chain(node).map((operand) => this.expect(this.check(operand), 'Boolean', op));
      return { type: 'Boolean', expr: { kind: op === 'AND' ? 'and' : 'or', items }, span };
    }
    if (op === '&') return { ...concatenate(chain(node).map((operand) => this.check(operand))), span };
    const left = this.check(node.left);
    const right = this.check(node.right);
    if (op === '+' || op === '-' || op === '*' || op === '/' || op === '%')
      return this.arithmetic(op, left, right, span);
    return this.compare(op, left, right, span);
  }

  private arithmetic(op: '+' | '-' | '*' | '/' | '%', left: Typed, right: Typed, span: Span): Typed {
    const types = new Set([left.type, right.type]);
    if ((op === '+' || op === '-') && (types.has('Date') || types.has('DateTime'))) {
      throw typeError(
        `"${op}" does not work on dates: use DATE_ADD to move a date, or DATE_DIFF for the time between two`,
        span,
      );
    }
    if (op === '+' && types.has('Text')) throw typeError('"+" adds Numbers: use & to join text', span);
    for (const side of [left, right]) {
      if (unify(side.type, 'Number') !== 'Number') {
        throw typeError(`"${op}" expects Numbers on both sides, got ${left.type} and ${right.type}`, span);
      }
    }
    let [leftExpr, rightExpr] = nullOfTheOtherType(left, right);
    if (op === '/') {
      // Real division whatever the column types (integer / integer would truncate elsewhere).
      leftExpr = castTo(leftExpr, 'double');
      rightExpr = nonZero(rightExpr);
    } else if (op === '%') {
      rightExpr = nonZero(rightExpr);
    }
    return { type: 'Number', expr: { kind: 'arithmetic', op, left: leftExpr, right: rightExpr }, span };
  }

  private compare(op: CompareOp, left: Typed, right: Typed, span: Span): Typed {
    if (left.type === 'Null' || right.type === 'Null') {
      throw typeError('A comparison with NULL is never true: use ISBLANK(...) to test for an empty value', span);
    }
    const type = unify(left.type, right.type);
    if (type === null) throw typeError(`Cannot compare ${left.type} with ${right.type}`, span);
    if (!COMPARABLE.includes(type)) throw typeError(`${type} values cannot be compared`, span);
    if (type === 'Boolean' && op !== '=' && op !== '<>') {
      throw typeError(`Booleans can only be compared with = or <>, not "${op}"`, span);
    }
    const expr: Expr = { kind: 'compare', op, left: comparedAs(left, type), right: comparedAs(right, type) };
    return { type: 'Boolean', expr, span };
  }

  private call(node: Node<'call'>, span: Span): Typed {
    const fn = findFunction(node.name);
    const nameSpan = { start: node.start, end: node.nameEnd };
    if (!fn) throw formulaError(`Unknown function ${node.name.toUpperCase()}`, 'unknown_function', nameSpan);
    const count = node.args.length;
    if (count < fn.minArgs || count > fn.maxArgs) {
      throw typeError(`${fn.name} expects ${arityText(fn)}, got ${count}`, span);
    }
    const args = node.args.map((arg) => this.check(arg));
    const result = fn.compile(new CallContext(fn.name, args, node.args, span));
    return { ...result, span };
  }
}

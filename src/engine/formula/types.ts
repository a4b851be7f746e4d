/**
 * The types of formula values: the spec's column types, plus `Null` for the NULL literal, which
 * fits wherever a value of any type does. Date and DateTime meet as DateTime (a date is its
 * midnight); no other two types mix, so Text is never compared with Number.
 */
import type { ColumnType } from '../../shared/tables';
import type { Expr, SqlType } from '../sql-ast';
import type { ExactNumber } from '../values/exact-number';
import type { Span } from './ast';

export type FormulaType = ColumnType | 'Null';

/** A checked piece of a formula: its type, its SQL node and where it is in the text. */
export interface Typed {
  type: FormulaType;
  expr: Expr;
  span: Span;
  /** A number literal's exact value (its `expr` may be a double), for comparisons. */
  literal?: ExactNumber;
}

const SQL_TYPES: Partial<Record<ColumnType, SqlType>> = {
  Text: 'text',
  Number: 'double',
  Boolean: 'boolean',
  Date: 'date',
  DateTime: 'timestamp',
};

/** The common type of two values, or null when they do not mix. */
export function unify(a: FormulaType, b: FormulaType): FormulaType | null {
  if (a === b) return a;
  if (a === 'Null') return b;
  if (b === 'Null') return a;
  const pair = new Set([a, b]);
  return pair.has('Date') && pair.has('DateTime') ? 'DateTime' : null;
}

const INT32_LIMIT = 2 ** 31;

/** Whether a bound value can simply be bound as `type` instead of being cast in SQL. */
function bindsAs(value: unknown, type: SqlType): boolean {
  if (value === null) return true;
  if (typeof value !== 'number') return false;
  if (type === 'double') return true;
  if (type === 'bigint') return Number.isSafeInteger(value);
  return type === 'integer' && Number.isInteger(value) && Math.abs(value) < INT32_LIMIT;
}

/** `expr` as SQL type `type`; a literal is bound as that type, and nothing is cast twice. */
export function castTo(expr: Expr, type: SqlType): Expr {
  if (expr.kind === 'param' && expr.value === null && (type === 'text' || type === 'boolean')) {
    // Text and boolean placeholders are written bare; a null one would leave its type to the database.
    return { kind: 'cast', expr: { ...expr, type }, type };
  }
  if (expr.kind === 'param' && (expr.type === type || bindsAs(expr.value, type))) return { ...expr, type };
  if (expr.kind === 'cast' && expr.type === type) return expr;
  return { kind: 'cast', expr, type };
}

/** Like `castTo`, but a value that does not fit (1e19 as a BIGINT) becomes null instead of an error. */
export function tryCastTo(expr: Expr, type: SqlType): Expr {
  const cast = castTo(expr, type);
  return cast.kind === 'cast' && cast.expr === expr ? { kind: 'try-cast', expr, type } : cast;
}

/**
 * The value as SQL of type `to` (which `unify` allowed): a NULL gets the SQL type, so a CASE or
 * COALESCE never has to guess it, and a Date becomes a timestamp next to DateTimes.
 */
export function coerce(value: Typed, to: FormulaType): Expr {
  if (to === 'Null' || value.type === to) return value.expr;
  const sqlType = SQL_TYPES[to as ColumnType];
  if (value.type === 'Null') {
    // Array and Json nulls stay untyped; the database takes the type from the other branch.
    return sqlType ? castTo(value.expr, sqlType) : value.expr;
  }
  if (value.type === 'Date' && to === 'DateTime') return castTo(value.expr, 'timestamp');
  throw new Error(`Cannot use a ${value.type} as ${to}`);
}

/**
 * Values that meet in one result (the branches of IF and CASE, COALESCE's arguments, both sides of
 * `+`) as SQL of type `to`. A NULL among typed values is left untyped, so the database gives it the
 * others' own SQL type (BIGINT, DECIMAL(38,6), ...): a NULL cast to DOUBLE would turn every branch
 * into a double and round 9007199254740993. Only where every value is NULL does the NULL get the
 * SQL type of `to` (and always for the types of one SQL type: Text, Boolean, dates).
 */
export function coerceTogether(values: readonly Typed[], to: FormulaType): Expr[] {
  // Only numbers have many SQL types; a NULL next to text, booleans or dates keeps its one type.
  const typed = to === 'Number' && values.some((value) => value.type !== 'Null');
  return values.map((value) => (typed && value.type === 'Null' ? value.expr : coerce(value, to)));
}

/**
 * Both operands of `+ - * / %` and MOD as SQL. A NULL next to a number becomes a null of that number's own
 * SQL type (`CASE WHEN FALSE THEN other END`), so `[amount] - NULL` stays a DECIMAL(38,6) or a
 * BIGINT: a NULL cast to DOUBLE would make the result a double, and a bare NULL may leave it
 * without a type (DuckDB folds `decimal - NULL` to an untyped NULL).
 */
export function nullOfTheOtherType(left: Typed, right: Typed): [Expr, Expr] {
  const [leftExpr, rightExpr] = coerceTogether([left, right], 'Number') as [Expr, Expr];
  const nullOf = (other: Expr): Expr => ({
    kind: 'case',
    whens: [{ when: { kind: 'constant', value: false }, then: other }],
    else: null,
  });
  if (left.type === 'Null' && right.type !== 'Null') return [nullOf(rightExpr), rightExpr];
  if (right.type === 'Null' && left.type !== 'Null') return [leftExpr, nullOf(leftExpr)];
  return [leftExpr, rightExpr];
}

/**
 * The text a user reads for the value: numbers as the grid shows them (`dialect.numberToText`),
 * lists joined by ', ', JSON as JSON text. TO_TEXT, CONCAT and & all come here.
 */
export function textOf(value: Typed): Expr {
  switch (value.type) {
    case 'Text':
      return value.expr;
    case 'Null':
      return coerce(value, 'Text');
    case 'Number':
      return { kind: 'text-of', expr: value.expr, shape: 'number' };
    case 'Array':
      return { kind: 'text-of', expr: value.expr, shape: 'array' };
    case 'Json':
      return { kind: 'text-of', expr: value.expr, shape: 'json' };
    default:
      return { kind: 'text-of', expr: value.expr, shape: 'scalar' };
  }
}

/** `a Number`, `an Array`. */
export function withArticle(type: FormulaType): string {
  return `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** `a Date or DateTime`, `a Text, Number, Date or DateTime`. */
export function describeTypes(types: readonly ColumnType[]): string {
  const [first, ...rest] = types;
  if (first === undefined) throw new Error('No types to describe');
  const last = rest.pop();
  return last === undefined
    ? withArticle(first)
    : `${withArticle(first)}${rest.map((t) => `, ${t}`).join('')} or ${last}`;
}

/** The result type a formula column gets: a formula that is only NULL is Text. */
export function resultType(type: FormulaType): ColumnType {
  return type === 'Null' ? 'Text' : type;
}

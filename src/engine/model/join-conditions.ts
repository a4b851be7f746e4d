/**
 * A relationship's conditions to the ON expression: conditions of a group ANDed, groups ORed.
 *
 * - A side is a source column of that side's table (qualified by its alias) or a constant value,
 *   bound as a parameter of the other side's type (a date alone on a DateTime column is midnight UTC;
 *   a number in the column's own SQL type, exactly, as filters bind it).
 * - Two columns of one type compare natively (Date with DateTime too; Numbers of two exact SQL
 *   types in a type that holds both, numeric-join.ts); otherwise both compare as text. Text is
 *   compared as its text, like filters do (UUID, ENUM ... columns included), a Number as the grid
 *   shows it.
 * - Like any SQL join, a null never matches, NotEquals included.
 * - `format.tolerance` (Number sides, Equals/NotEquals): `abs(l - r) <= tolerance` (NotEquals: `>`).
 *   `format.datePrecision` (Date/DateTime sides): both sides truncated to the grain, then compared.
 *   Options that do not fit the condition are ignored: the editor hides them, but keeps their
 *   value when the user switches a side to another column.
 */
import type { ColumnType } from '../../shared/tables';
import { TIME_GRAINS } from '../dialect';
import { ModelError, type ModelErrorLocation } from '../errors';
import { never, range } from '../filters/compile-filter';
import { toOperand } from '../filters/operands';
import type { RelationColumn } from '../ir';
import type { CompareOp, Expr } from '../sql-ast';
import { JOIN_OPERATORS, type JoinConditionSpec, type JoinOperator, type SourceRef } from './ir';
import type { PlacedJoin } from './join-tree';
import { removedColumnMessage, sourceName } from './messages';
import { exactNumberComparison, needsDoubleDistance } from './numeric-join';
import type { SourceIndex } from './sources';

const OPERATORS: Record<JoinOperator, CompareOp> = {
  Equals: '=',
  NotEquals: '<>',
  GreaterThan: '>',
  LessThan: '<',
  GreaterThanOrEquals: '>=',
  LessThanOrEquals: '<=',
};

type Side =
  | { kind: 'column'; expr: Expr; type: ColumnType; sqlType?: string }
  | { kind: 'value'; value: string | number | boolean };

/** `a op b` read from b's side: `5 < x` is `x > 5`. */
const FLIPPED: Record<CompareOp, CompareOp> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

const isDate = (type: ColumnType): boolean => type === 'Date' || type === 'DateTime';

function readSide(
  condition: JoinConditionSpec,
  side: 'left' | 'right',
  table: SourceRef,
  alias: string,
  sources: SourceIndex,
  location: ModelErrorLocation,
): Side | null {
  const key = side === 'left' ? condition.leftColumnKey : condition.rightColumnKey;
  if (typeof key === 'string' && key !== '') {
    const column = sources.column(table, key);
    if (!column) {
      throw new ModelError(removedColumnMessage([key]), 'column_removed', [...location, `${side}ColumnKey`]);
    }
    if (column.type === 'Array' || column.type === 'Json') {
      throw new ModelError(
        `${column.displayName || key} is a ${column.type} column and cannot be used in a relationship`,
        'invalid_join',
        [...location, `${side}ColumnKey`],
      );
    }
    return {
      kind: 'column',
      expr: { kind: 'column', table: alias, name: key },
      type: column.type,
      sqlType: column.sqlType,
    };
  }
  const value = side === 'left' ? condition.leftValue : condition.rightValue;
  return value === null || value === undefined ? null : { kind: 'value', value };
}

/** The two sides as comparable expressions of one type, or of text when their types differ. */
function comparable(
  left: Side,
  right: Side,
  subject: string,
  location: ModelErrorLocation,
): { left: Expr; right: Expr; type: ColumnType | 'mixed' } {
  const typeOf = (side: Side): ColumnType | null => (side.kind === 'column' ? side.type : null);
  const asExpr = (side: Side, otherType: ColumnType, key: 'leftValue' | 'rightValue'): Expr => {
    if (side.kind === 'column') return side.expr;
    // Without the column's SQL type a number is always one exact value (for tolerances);
    // `valueCondition` binds it in the column's own type.
    const operand = toOperand({ type: otherType }, side.value, { subject, location: [...location, key] });
    if (operand.kind === 'gap') throw new Error('A value of a known type cannot be a gap');
    if (operand.kind === 'range') {
      if (operand.start.kind !== 'value') throw new Error('A day starts at a value');
      return operand.start.expr;
    }
    return operand.expr;
  };
  const leftType = typeOf(left) ?? typeOf(right)!;
  const rightType = typeOf(right) ?? leftType;
  const l = asExpr(left, rightType, 'leftValue');
  const r = asExpr(right, leftType, 'rightValue');
  const same = leftType === rightType || (isDate(leftType) && isDate(rightType));
  if (!same || leftType === 'Text') {
    // A value is already bound as text (it takes the type of the column opposite).
    const text = (side: Side, expr: Expr): Expr =>
      side.kind === 'column' ? { kind: 'text-of', expr, shape: side.type === 'Number' ? 'number' : 'scalar' } : expr;
    return { left: text(left, l), right: text(right, r), type: same ? 'Text' : 'mixed' };
  }
  return { left: l, right: r, type: leftType };
}

function compileCondition(
  condition: JoinConditionSpec,
  join: PlacedJoin,
  sources: SourceIndex,
  location: ModelErrorLocation,
): Expr {
  const { spec } = join;
  const subject = `Relationship between ${sourceName(sources.source(spec.leftTable)!)} and ${sourceName(sources.source(spec.rightTable)!)}`;
  if (!JOIN_OPERATORS.includes(condition.operator)) {
    throw new ModelError(`${subject}: unknown operator "${String(condition.operator)}"`, 'invalid_join', [
      ...location,
      'operator',
    ]);
  }
  const left = readSide(condition, 'left', spec.leftTable, join.leftAlias, sources, location);
  const right = readSide(condition, 'right', spec.rightTable, join.rightAlias, sources, location);
  if (!left || !right) {
    throw new ModelError(
      `${subject}: each condition needs a column or a value on both sides`,
      'invalid_join',
      location,
    );
  }
  if (left.kind === 'value' && right.kind === 'value') {
    throw new ModelError(`${subject}: a condition needs a column on at least one side`, 'invalid_join', location);
  }
  const sides = comparable(left, right, subject, location);
  const op = OPERATORS[condition.operator];
  const tolerance = condition.format?.tolerance;
  if (sides.type === 'Number' && (op === '=' || op === '<>') && tolerance !== null && tolerance !== undefined) {
    if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
      throw new ModelError(`${subject}: the tolerance must be a number from 0`, 'invalid_join', [
        ...location,
        'format',
        'tolerance',
      ]);
    }
    // A tolerance is a distance in doubles anyway; types DuckDB cannot subtract safely meet there.
    const asDouble =
      left.kind === 'column' && right.kind === 'column' && needsDoubleDistance(left, right)
        ? (expr: Expr): Expr => ({ kind: 'cast', expr, type: 'double' })
        : (expr: Expr): Expr => expr;
    const distance: Expr = { kind: 'abs-difference', left: asDouble(sides.left), right: asDouble(sides.right) };
    const bound: Expr = { kind: 'param', value: tolerance, type: 'double' };
    return { kind: 'compare', op: op === '=' ? '<=' : '>', left: distance, right: bound };
  }
  const grain = condition.format?.datePrecision;
  if (sides.type !== 'mixed' && isDate(sides.type) && grain !== null && grain !== undefined) {
    if (!TIME_GRAINS.includes(grain)) {
      throw new ModelError(`${subject}: unknown date precision "${String(grain)}"`, 'invalid_join', [
        ...location,
        'format',
        'datePrecision',
      ]);
    }
    const truncate = (expr: Expr): Expr => ({ kind: 'date-trunc', expr, grain });
    return { kind: 'compare', op, left: truncate(sides.left), right: truncate(sides.right) };
  }
  if (sides.type === 'Number') {
    if (left.kind === 'value' && right.kind === 'column') {
      return valueCondition(FLIPPED[op], right, left.value, subject, [...location, 'leftValue']);
    }
    if (right.kind === 'value' && left.kind === 'column') {
      return valueCondition(op, left, right.value, subject, [...location, 'rightValue']);
    }
    if (left.kind === 'column' && right.kind === 'column') {
      const exact = exactNumberComparison(op, left, right);
      if (exact) return exact;
    }
  }
  return { kind: 'compare', op, left: sides.left, right: sides.right };
}

/**
 * `column op value` on a Number column, the value bound in the column's SQL type as filters bind
 * it. A value the type cannot hold equals no cell, differs from every non-null one, and orders
 * like the filter's range operators.
 */
function valueCondition(
  op: CompareOp,
  column: Pick<RelationColumn, 'type' | 'sqlType'> & { expr: Expr },
  value: string | number | boolean,
  subject: string,
  location: ModelErrorLocation,
): Expr {
  const operand = toOperand(column, value, { subject, location });
  if (operand.kind === 'exact') return { kind: 'compare', op, left: column.expr, right: operand.expr };
  if (op === '=') return never;
  if (op === '<>') return { kind: 'is-null', expr: column.expr, negated: true };
  return range(op, column.expr, operand);
}

export function compileJoinCondition(join: PlacedJoin, sources: SourceIndex): Expr {
  const groups: Expr[] = [];
  join.spec.joinGroups.forEach((group, groupIndex) => {
    const conditions = group.conditions.map((condition, conditionIndex) =>
      compileCondition(condition, join, sources, [
        'joins',
        join.index,
        'joinGroups',
        groupIndex,
        'conditions',
        conditionIndex,
      ]),
    );
    if (conditions.length > 0)
      groups.push(conditions.length === 1 ? conditions[0]! : { kind: 'and', items: conditions });
  });
  if (groups.length === 0) {
    const { leftTable, rightTable } = join.spec;
    throw new ModelError(
      `The relationship between ${sourceName(sources.source(leftTable)!)} and ${sourceName(sources.source(rightTable)!)} has no conditions`,
      'invalid_join',
      ['joins', join.index, 'joinGroups'],
    );
  }
  return groups.length === 1 ? groups[0]! : { kind: 'or', items: groups };
}

/**
 * One filter to one SQL condition. The rules, which the README repeats:
 * - Text is compared as text (`CAST(.. AS VARCHAR)`, free on VARCHAR columns), case-sensitively,
 *   except Contains and NotContains, which ignore case. Array is searched in its elements' text
 *   joined by ', ', Json in its minified JSON text (keys included).
 * - Negative operators keep empty cells: NotEquals is `IS DISTINCT FROM`, NotContains is
 *   `IS NULL OR NOT contains(..)`, since an empty cell neither equals nor contains the value.
 * - Empty is null, or '' for Text, [] for Array, JSON null for Json; Exists is exactly the opposite.
 * - A date-only value on a DateTime column means that whole UTC day: Equals is within the day,
 *   GreaterThan is after it, LessThanOrEquals is up to its end, Between covers both end days.
 * - Between is inclusive at both ends, values in the order given.
 */
import { FILTER_OPERATORS, OPERATORS_BY_TYPE, type FilterOperator } from '../../shared/tables';
import { columnLabel, type ColumnScope } from '../columns';
import { ModelError, type ModelErrorLocation } from '../errors';
import type { FilterSpec, RelationColumn } from '../ir';
import type { CompareOp, Expr, TextShape } from '../sql-ast';
import { toOperand, type Operand } from './operands';

const RANGE_OPERATORS: Partial<Record<FilterOperator, CompareOp>> = {
  GreaterThan: '>',
  GreaterThanOrEquals: '>=',
  LessThan: '<',
  LessThanOrEquals: '<=',
};

const compare = (op: CompareOp, left: Expr, right: Expr): Expr => ({ kind: 'compare', op, left, right });
const isNull = (expr: Expr, negated = false): Expr => ({ kind: 'is-null', expr, negated });

export function compileFilter(filter: FilterSpec, scope: ColumnScope, location: ModelErrorLocation): Expr {
  const column = scope.resolve(filter.columnKey, [...location, 'columnKey']);
  const subject = `Filter on "${columnLabel(column)}"`;
  const operator = filter.operator;
  if (!FILTER_OPERATORS.includes(operator)) {
    throw new ModelError(`${subject}: unknown operator "${String(operator)}"`, 'unknown_operator', [
      ...location,
      'operator',
    ]);
  }
  if (!OPERATORS_BY_TYPE[column.type].includes(operator)) {
    throw new ModelError(
      `${subject}: ${operator} does not apply to a ${column.type} column`,
      'operator_not_applicable',
      [...location, 'operator'],
    );
  }

  const columnRef: Expr = scope.expression(column);
  // Text columns may be UUID, TIME, ENUM...; comparing their text is what the user sees in the grid.
  const subjectExpr: Expr = column.type === 'Text' ? { kind: 'text-of', expr: columnRef, shape: 'scalar' } : columnRef;
  const operand = (key: 'value' | 'value2'): Operand =>
    toOperand(column.type, filter[key], { subject, location: [...location, key] });

  switch (operator) {
    case 'Exists':
      return exists(column, columnRef);
    case 'Empty':
      return empty(column, columnRef);
    case 'Contains':
    case 'NotContains': {
      const value = operand('value');
      if (value.kind !== 'exact') throw new Error('Contains takes a text value');
      const haystack: Expr = { kind: 'text-of', expr: columnRef, shape: textShape(column) };
      const contains: Expr = { kind: 'contains', haystack, needle: value.expr };
      return operator === 'Contains'
        ? contains
        : { kind: 'or', items: [isNull(columnRef), { kind: 'not', expr: contains }] };
    }
    case 'Equals':
      return equals(subjectExpr, operand('value'));
    case 'NotEquals':
      return notEquals(subjectExpr, operand('value'));
    case 'Between': {
      const low = operand('value');
      const high = operand('value2');
      if (low.kind === 'exact' && high.kind === 'exact') {
        return { kind: 'between', expr: subjectExpr, low: low.expr, high: high.expr };
      }
      return { kind: 'and', items: [range('>=', subjectExpr, low), range('<=', subjectExpr, high)] };
    }
    default: {
      const op = RANGE_OPERATORS[operator];
      if (!op) throw new Error(`No rule for operator ${operator}`);
      return range(op, subjectExpr, operand('value'));
    }
  }
}

function textShape(column: RelationColumn): TextShape {
  if (column.type === 'Array') return 'array';
  return column.type === 'Json' ? 'json' : 'scalar';
}

/** What an empty non-null cell looks like for each type, or null where only SQL NULL is empty. */
function emptyShape(column: RelationColumn, ref: Expr): { expr: Expr; value: string | number } | null {
  switch (column.type) {
    case 'Text':
      return { expr: { kind: 'text-of', expr: ref, shape: 'scalar' }, value: '' };
    case 'Array':
      return { expr: { kind: 'array-length', expr: ref }, value: 0 };
    case 'Json':
      return { expr: { kind: 'text-of', expr: ref, shape: 'json' }, value: 'null' };
    default:
      return null;
  }
}

/** Both Exists and Empty are total (never null), and each is exactly the negation of the other. */
function exists(column: RelationColumn, ref: Expr): Expr {
  const shape = emptyShape(column, ref);
  if (!shape) return isNull(ref, true);
  return {
    kind: 'and',
    items: [isNull(ref, true), compare('<>', shape.expr, { kind: 'constant', value: shape.value })],
  };
}

function empty(column: RelationColumn, ref: Expr): Expr {
  const shape = emptyShape(column, ref);
  if (!shape) return isNull(ref);
  return { kind: 'or', items: [isNull(ref), compare('=', shape.expr, { kind: 'constant', value: shape.value })] };
}

function equals(subject: Expr, value: Operand): Expr {
  if (value.kind === 'exact') return compare('=', subject, value.expr);
  return { kind: 'and', items: [compare('>=', subject, value.start), compare('<', subject, value.end)] };
}

function notEquals(subject: Expr, value: Operand): Expr {
  if (value.kind === 'exact') return { kind: 'distinct-from', left: subject, right: value.expr };
  return {
    kind: 'or',
    items: [isNull(subject), compare('<', subject, value.start), compare('>=', subject, value.end)],
  };
}

/** A range comparison; a whole-day operand turns each operator into a bound of the day. */
function range(op: CompareOp, subject: Expr, value: Operand): Expr {
  if (value.kind === 'exact') return compare(op, subject, value.expr);
  switch (op) {
    case '>':
      return compare('>=', subject, value.end);
    case '>=':
      return compare('>=', subject, value.start);
    case '<':
      return compare('<', subject, value.start);
    case '<=':
      return compare('<', subject, value.end);
    default:
      throw new Error(`${op} is not a range comparison`);
  }
}

/**
 * One filter to one SQL condition. The rules, which the README repeats:
 * - Text is compared as the text the grid shows (`CAST(.. AS VARCHAR)`, free on VARCHAR columns;
 *   intervals, BLOBs and times with a zone as the grid writes them, values/shown-text.ts), case-sensitively,
 *   except Contains and NotContains, which ignore case, and a UUID column's value, read in any case. Array is searched in its elements' text
 *   joined by ', ', Json in its minified JSON text (keys included).
 * - Negative operators keep empty cells: NotEquals is `IS DISTINCT FROM`, NotContains is
 *   `IS NULL OR NOT contains(..)`, since an empty cell neither equals nor contains the value.
 * - Empty is null, or '' for Text, [] for Array, JSON null for Json; Exists is exactly the opposite.
 * - A date-only value on a DateTime column means that whole UTC day: Equals is within the day,
 *   GreaterThan is after it, LessThanOrEquals is up to its end, Between covers both end days.
 * - Between is inclusive at both ends, values in the order given.
 * - Numbers compare exactly in the column's type (operands.ts); a value the type cannot hold is a
 *   gap: Equals matches nothing, NotEquals everything, the range operators the values on their side.
 */
import { FILTER_OPERATORS, OPERATORS_BY_TYPE, type FilterOperator } from '../../shared/tables';
import { columnLabel, type ColumnScope } from '../columns';
import { ModelError, type ModelErrorLocation } from '../errors';
import type { FilterSpec, RelationColumn } from '../ir';
import type { CompareOp, Expr, TextShape } from '../sql-ast';
import { scalarTextShape, shownText } from '../values/shown-text';
import { toOperand, type Edge, type Operand } from './operands';

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
  const subjectExpr: Expr = column.type === 'Text' ? shownText(columnRef, column.sqlType) : columnRef;
  const operand = (key: 'value' | 'value2'): Operand =>
    toOperand(column, filter[key], { subject, location: [...location, key] });

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
  return column.type === 'Json' ? 'json' : scalarTextShape(column.sqlType);
}

/** What an empty non-null cell looks like for each type, or null where only SQL NULL is empty. */
function emptyShape(column: RelationColumn, ref: Expr): { expr: Expr; value: string | number } | null {
  switch (column.type) {
    case 'Text':
      return { expr: shownText(ref, column.sqlType), value: '' };
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

export const never: Expr = { kind: 'constant', value: false };
const always: Expr = { kind: 'constant', value: true };

/**
 * `subject >= edge`. Past the type's range it is a constant: no value reaches `above-max`; every
 * value is past `below-min` (an empty cell stays out, as it does of every comparison).
 */
function atLeast(subject: Expr, edge: Edge): Expr {
  if (edge.kind === 'above-max') return never;
  if (edge.kind === 'below-min') return isNull(subject, true);
  return compare('>=', subject, edge.expr);
}

/** `subject < edge`, the exact complement of `atLeast` among non-empty cells. */
function below(subject: Expr, edge: Edge): Expr {
  if (edge.kind === 'above-max') return isNull(subject, true);
  if (edge.kind === 'below-min') return never;
  return compare('<', subject, edge.expr);
}

function equals(subject: Expr, value: Operand): Expr {
  if (value.kind === 'exact') return compare('=', subject, value.expr);
  if (value.kind === 'gap') return never;
  return { kind: 'and', items: [atLeast(subject, value.start), below(subject, value.end)] };
}

function notEquals(subject: Expr, value: Operand): Expr {
  if (value.kind === 'exact') return { kind: 'distinct-from', left: subject, right: value.expr };
  // Empty cells too: they do not equal the value.
  if (value.kind === 'gap') return always;
  return {
    kind: 'or',
    items: [isNull(subject), below(subject, value.start), atLeast(subject, value.end)],
  };
}

/**
 * A range comparison. A whole day turns each operator into a bound of the day; a gap just below
 * `at` has every value either below it or at least `at`.
 */
export function range(op: CompareOp, subject: Expr, value: Operand): Expr {
  if (value.kind === 'exact') return compare(op, subject, value.expr);
  const start = value.kind === 'gap' ? value.at : value.start;
  const end = value.kind === 'gap' ? value.at : value.end;
  switch (op) {
    case '>':
      return atLeast(subject, end);
    case '>=':
      return atLeast(subject, start);
    case '<':
      return below(subject, start);
    case '<=':
      return below(subject, end);
    default:
      throw new Error(`${op} is not a range comparison`);
  }
}

/**
 * The formula language of model function columns: `parseFormula` (text to tree), `compileFormula`
 * (type-check against the model's columns and build the SQL tree) and `referencedColumnKeys`
 * (for dependentColumnKeys and cycle checks). Problems are ModelErrors located at
 * `['function', start, end]`.
 */
import type { ColumnType } from '../../shared/tables';
import type { Expr } from '../sql-ast';
import type { FormulaAst } from './ast';
import { FormulaChecker, type FormulaScope } from './check';
import { children, parseFormula } from './parser';
import { resultType } from './types';

export type { BinaryOperator, FormulaAst, Span } from './ast';
export type { FormulaScope } from './check';
export { FORMULA_FUNCTION_TABLE } from './functions';
// Text read as a date, a UTC date-time or a number the way TO_DATE, TO_DATETIME and TO_NUMBER read it,
// for a model column's castTo (model/model-columns.ts) to share.
export { dateFromText, dateTimeFromText } from './functions/date-text';
export { numberFromText } from './functions/number-text';
export type { FormulaFunction, FunctionCategory } from './functions/spec';
export { MAX_FORMULA_LENGTH, parseFormula } from './parser';
export { formulaNamesToKeys, type KeyedFormula } from './names';
export type { FormulaType } from './types';

export interface CompiledFormula {
  expr: Expr;
  type: ColumnType;
  /** The column keys the formula reads, in the order they first appear, each once. */
  columnKeys: string[];
}

function columnKeysOf(ast: FormulaAst): string[] {
  const keys = new Set<string>();
  // Depth-first, children pushed in reverse so they are visited in reading order.
  const stack: FormulaAst[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'column') keys.add(node.key);
    stack.push(...[...children(node)].reverse());
  }
  return [...keys];
}

/** The keys of the columns a formula references; throws a ModelError when it does not parse. */
export function referencedColumnKeys(text: string): string[] {
  return columnKeysOf(parseFormula(text));
}

export function compileFormula(text: string, scope: FormulaScope): CompiledFormula {
  const ast = parseFormula(text);
  const checked = new FormulaChecker(scope).check(ast);
  // A formula that is only NULL still needs a column type: an empty Text.
  const expr: Expr = checked.type === 'Null' ? { kind: 'cast', expr: checked.expr, type: 'text' } : checked.expr;
  return { expr, type: resultType(checked.type), columnKeys: columnKeysOf(ast) };
}

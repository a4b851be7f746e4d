/**
 * What a whitelisted formula function is: its name, arity and result type (checked by a test
 * against the catalogue in src/shared/functions.ts), and how it turns checked arguments into SQL.
 * `CallContext` gives each function the argument checks, so every message is worded alike.
 */
import type { ColumnType } from '../../../shared/tables';
import { DATE_GRAINS, type DateGrain } from '../../dialect';
import type { ModelError } from '../../errors';
import type { Expr } from '../../sql-ast';
import type { FormulaAst, Span } from '../ast';
import { formulaError } from '../formula-error';
import { children } from '../parser';
import { coerce, coerceTogether, describeTypes, unify, withArticle, type FormulaType, type Typed } from '../types';

export type FunctionCategory = 'Logic' | 'Text' | 'Number' | 'Date' | 'Conversion';

export interface FunctionResult {
  type: FormulaType;
  expr: Expr;
}

export interface FormulaFunction {
  /** Upper case, as the catalogue shows it; calls may write it in any case. */
  name: string;
  category: FunctionCategory;
  minArgs: number;
  /** `Infinity` for functions taking any number of arguments. */
  maxArgs: number;
  /** The result type, or 'varies' when it follows the arguments (IF, COALESCE, LEAST, ...). */
  returns: ColumnType | 'varies';
  compile(call: CallContext): FunctionResult;
}

/** Grains in the order a person lists them, for messages. */
const GRAINS_IN_ORDER: readonly DateGrain[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

export class CallContext {
  constructor(
    readonly name: string,
    readonly args: readonly Typed[],
    private readonly argAsts: readonly FormulaAst[],
    readonly span: Span,
  ) {}

  fail(message: string, span: Span = this.span): ModelError {
    return formulaError(message, 'formula_type', span);
  }

  private at(index: number): Typed {
    const arg = this.args[index];
    if (!arg) throw new Error(`${this.name} has no argument ${index + 1}`);
    return arg;
  }

  /** Whether argument `index` reads no column (the database folds it to one value). */
  isConstant(index: number): boolean {
    const ast = this.argAsts[index];
    if (!ast) throw new Error(`${this.name} has no argument ${index + 1}`);
    const stack: FormulaAst[] = [ast];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.kind === 'column') return false;
      stack.push(...children(node));
    }
    return true;
  }

  /** Argument `index` (0-based), checked to be one of `types`; NULL fits any. */
  arg(index: number, ...types: ColumnType[]): Typed {
    const arg = this.at(index);
    if (arg.type !== 'Null' && !types.includes(arg.type)) {
      throw this.fail(
        `${this.name} expects ${describeTypes(types)} as argument ${index + 1}, got ${arg.type}`,
        arg.span,
      );
    }
    return arg;
  }

  /** Argument `index` as SQL of exactly `type`. */
  expr(index: number, type: ColumnType): Expr {
    return coerce(this.arg(index, type), type);
  }

  /**
   * The one type the arguments at `indexes` share (each one of `allowed`), and their SQL in it;
   * e.g. the two results of IF, or every argument of COALESCE. A NULL among them takes the
   * others' SQL type (`coerceTogether`).
   */
  same(indexes: readonly number[], allowed?: readonly ColumnType[]): { type: FormulaType; exprs: Expr[] } {
    let type: FormulaType = 'Null';
    let firstTyped = -1;
    for (const index of indexes) {
      const arg = allowed ? this.arg(index, ...allowed) : this.at(index);
      const common = unify(type, arg.type);
      if (common === null) {
        throw this.fail(
          `${this.name} expects ${withArticle(type)} as argument ${index + 1} (like argument ${firstTyped + 1}), got ${arg.type}`,
          arg.span,
        );
      }
      if (firstTyped < 0 && arg.type !== 'Null') firstTyped = index;
      type = common;
    }
    return {
      type,
      exprs: coerceTogether(
        indexes.map((index) => this.at(index)),
        type,
      ),
    };
  }

  /** A time grain, written as text in quotes (it picks the SQL to write, so it cannot come from a column). */
  grain(index: number): DateGrain {
    const ast = this.argAsts[index];
    if (!ast) throw new Error(`${this.name} has no argument ${index + 1}`);
    const choices = GRAINS_IN_ORDER.map((grain) => `'${grain}'`);
    const list = `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)!}`;
    if (ast.kind !== 'text') {
      throw this.fail(`${this.name} expects a time grain in quotes as argument ${index + 1}: ${list}`, ast);
    }
    const grain = DATE_GRAINS.find((candidate) => candidate === ast.value.trim().toLowerCase());
    if (!grain) throw this.fail(`Unknown time grain ${JSON.stringify(ast.value)}: use ${list}`, ast);
    return grain;
  }
}

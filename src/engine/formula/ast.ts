/**
 * The parsed form of a formula: plain data, every node with its place in the text (`start`
 * inclusive, `end` exclusive, 0-based offsets) so errors can point at it.
 */

export interface Span {
  start: number;
  end: number;
}

export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '&' | '=' | '<>' | '<' | '<=' | '>' | '>=' | 'AND' | 'OR';

export type FormulaAst =
  /** `text` is the literal as written (with `-` when negated), so a whole number keeps every digit. */
  | ({ kind: 'number'; value: number; text: string } & Span)
  | ({ kind: 'text'; value: string } & Span)
  | ({ kind: 'boolean'; value: boolean } & Span)
  | ({ kind: 'null' } & Span)
  /** `[columnKey]`, the key with `]]` already turned back into `]`. */
  | ({ kind: 'column'; key: string } & Span)
  | ({ kind: 'unary'; op: '-' | 'NOT'; operand: FormulaAst } & Span)
  | ({ kind: 'binary'; op: BinaryOperator; left: FormulaAst; right: FormulaAst } & Span)
  /** `name` as written; `nameEnd` ends the name, so an unknown function is underlined alone. */
  | ({ kind: 'call'; name: string; nameEnd: number; args: readonly FormulaAst[] } & Span);

/**
 * Tokens to a formula tree, by recursive descent. Precedence, loosest first:
 * OR, AND, NOT, comparisons (= <> != < <= > >=), & (join text), + -, * / %, unary -.
 * Binary operators group to the left (`a - b - c` is `(a - b) - c`). Keywords (TRUE, FALSE, NULL,
 * AND, OR, NOT) and function names ignore case.
 */
import type { BinaryOperator, FormulaAst, Span } from './ast';
import { formulaError, positionOf } from './formula-error';
import { tokenize, type FormulaSymbol, type Token } from './lexer';

/** Long enough for any formula a person writes; keeps hostile input from exhausting memory or the stack. */
export const MAX_FORMULA_LENGTH = 10_000;
const MAX_NESTING = 100;
const MAX_TREE_DEPTH = 1_000;

const COMPARISONS: Partial<Record<FormulaSymbol, BinaryOperator>> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
const ADDITIVE: Partial<Record<FormulaSymbol, BinaryOperator>> = { '+': '+', '-': '-' };
const MULTIPLICATIVE: Partial<Record<FormulaSymbol, BinaryOperator>> = { '*': '*', '/': '/', '%': '%' };
const CONCAT: Partial<Record<FormulaSymbol, BinaryOperator>> = { '&': '&' };

const KEYWORDS = new Set(['TRUE', 'FALSE', 'NULL', 'AND', 'OR', 'NOT']);

function describe(token: Token): string {
  return token.kind === 'end' ? 'the end of the formula' : JSON.stringify(token.text);
}

class Parser {
  private index = 0;
  private nesting = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseFormula(): FormulaAst {
    if (this.peek().kind === 'end') {
      throw formulaError('The formula is empty', 'formula_syntax', { start: 0, end: 0 });
    }
    const node = this.or();
    const rest = this.peek();
    if (rest.kind !== 'end') throw this.unexpected(rest);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.tokens[this.index]!;
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  private keyword(word: string): Token | null {
    const token = this.peek();
    return token.kind === 'name' && token.name.toUpperCase() === word ? token : null;
  }

  private symbol(symbol: FormulaSymbol): Token | null {
    const token = this.peek();
    return token.kind === 'symbol' && token.symbol === symbol ? token : null;
  }

  private unexpected(token: Token, expected?: string): Error {
    const wanted = expected ? `, expected ${expected}` : '';
    if (token.kind === 'end') {
      return formulaError(`The formula ends too early${wanted || ': a value is missing'}`, 'formula_syntax', token);
    }
    return formulaError(`Unexpected ${describe(token)} at ${positionOf(token)}${wanted}`, 'formula_syntax', token);
  }

  /** Guards recursion, so thousands of "(" give a ModelError instead of a stack overflow. */
  private nested<T>(at: Span, parse: () => T): T {
    this.nesting += 1;
    if (this.nesting > MAX_NESTING) {
      throw formulaError(`The formula is nested too deeply at ${positionOf(at)}`, 'formula_syntax', at);
    }
    try {
      return parse();
    } finally {
      this.nesting -= 1;
    }
  }

  private or(): FormulaAst {
    let left = this.and();
    while (this.keyword('OR')) {
      this.next();
      left = binary('OR', left, this.and());
    }
    return left;
  }

  private and(): FormulaAst {
    let left = this.not();
    while (this.keyword('AND')) {
      this.next();
      left = binary('AND', left, this.not());
    }
    return left;
  }

  private not(): FormulaAst {
    const token = this.keyword('NOT');
    if (!token) return this.binaryLevel(COMPARISONS, () => this.binaryLevel(CONCAT, () => this.additive()));
    this.next();
    const operand = this.nested(token, () => this.not());
    return { kind: 'unary', op: 'NOT', operand, start: token.start, end: operand.end };
  }

  private additive(): FormulaAst {
    return this.binaryLevel(ADDITIVE, () => this.binaryLevel(MULTIPLICATIVE, () => this.unary()));
  }

  /** One precedence level of left-grouping binary operators. */
  private binaryLevel(
    operators: Partial<Record<FormulaSymbol, BinaryOperator>>,
    operand: () => FormulaAst,
  ): FormulaAst {
    let left = operand();
    for (;;) {
      const token = this.peek();
      const op = token.kind === 'symbol' ? operators[token.symbol] : undefined;
      if (!op) return left;
      this.next();
      left = binary(op, left, operand());
    }
  }

  private unary(): FormulaAst {
    const token = this.symbol('-');
    if (!token) return this.primary();
    this.next();
    const operand = this.nested(token, () => this.unary());
    // A negative number is one literal (one bound value), not a negation of a positive one.
    if (operand.kind === 'number') {
      const text = operand.text.startsWith('-') ? operand.text.slice(1) : `-${operand.text}`;
      return { ...operand, value: 0 - operand.value, text, start: token.start };
    }
    return { kind: 'unary', op: '-', operand, start: token.start, end: operand.end };
  }

  private primary(): FormulaAst {
    const token = this.next();
    switch (token.kind) {
      case 'number':
        return { kind: 'number', value: token.value, text: token.text, start: token.start, end: token.end };
      case 'text':
        return { kind: 'text', value: token.value, start: token.start, end: token.end };
      case 'column':
        return { kind: 'column', key: token.key, start: token.start, end: token.end };
      case 'name':
        return this.named(token, token.name);
      case 'symbol':
        if (token.symbol === '(') {
          const inner = this.nested(token, () => this.or());
          const close = this.expectClose(token, '")"');
          return { ...inner, start: token.start, end: close.end };
        }
        throw this.unexpected(token, 'a value');
      case 'end':
        throw this.unexpected(token);
    }
  }

  private named(token: Token, name: string): FormulaAst {
    const span = { start: token.start, end: token.end };
    const upper = name.toUpperCase();
    if (upper === 'TRUE' || upper === 'FALSE') return { kind: 'boolean', value: upper === 'TRUE', ...span };
    if (upper === 'NULL') return { kind: 'null', ...span };
    if (KEYWORDS.has(upper)) throw this.unexpected(token, 'a value');
    if (!this.symbol('(')) {
      throw formulaError(
        `Unknown name ${name} at ${positionOf(span)}: write columns in brackets, like [${name}], and text in quotes`,
        'formula_syntax',
        span,
      );
    }
    const open = this.next();
    const args = this.nested(open, () => this.arguments());
    const close = this.expectClose(open, '"," or ")"');
    return { kind: 'call', name, nameEnd: token.end, args, start: token.start, end: close.end };
  }

  private arguments(): FormulaAst[] {
    const args: FormulaAst[] = [];
    if (this.symbol(')')) return args;
    for (;;) {
      args.push(this.or());
      if (!this.symbol(',')) return args;
      this.next();
    }
  }

  private expectClose(open: Token, expected: string): Token {
    const token = this.peek();
    if (token.kind === 'symbol' && token.symbol === ')') return this.next();
    if (token.kind === 'end') {
      throw formulaError(`The "(" at ${positionOf(open)} has no closing ")"`, 'formula_syntax', open);
    }
    throw this.unexpected(token, expected);
  }
}

function binary(op: BinaryOperator, left: FormulaAst, right: FormulaAst): FormulaAst {
  return { kind: 'binary', op, left, right, start: left.start, end: right.end };
}

/** Depth of the tree without recursion: left-grouped chains (`1+1+1...`) deepen it without nesting. */
function treeDepth(root: FormulaAst): number {
  let deepest = 0;
  const stack: [FormulaAst, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of children(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export function children(node: FormulaAst): readonly FormulaAst[] {
  switch (node.kind) {
    case 'unary':
      return [node.operand];
    case 'binary':
      return [node.left, node.right];
    case 'call':
      return node.args;
    default:
      return [];
  }
}

export function parseFormula(text: string): FormulaAst {
  if (text.length > MAX_FORMULA_LENGTH) {
    throw formulaError(
      `The formula is too long (${text.length} characters, at most ${MAX_FORMULA_LENGTH})`,
      'formula_syntax',
      { start: MAX_FORMULA_LENGTH, end: text.length },
    );
  }
  const ast = new Parser(tokenize(text)).parseFormula();
  if (treeDepth(ast) > MAX_TREE_DEPTH) {
    throw formulaError('The formula is too long: split it into several columns', 'formula_syntax', ast);
  }
  return ast;
}

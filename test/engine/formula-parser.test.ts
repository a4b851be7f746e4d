import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/engine/errors';
import { parseFormula, referencedColumnKeys, type FormulaAst } from '../../src/engine/formula';
import { formulaError } from './formula-helpers';

/** The tree fully parenthesised, so grouping is visible. */
function show(node: FormulaAst): string {
  switch (node.kind) {
    case 'number':
      return String(node.value);
    case 'text':
      return `'${node.value}'`;
    case 'boolean':
      return node.value ? 'TRUE' : 'FALSE';
    case 'null':
      return 'NULL';
    case 'column':
      return `[${node.key}]`;
    case 'unary':
      return `(${node.op === 'NOT' ? 'NOT ' : '-'}${show(node.operand)})`;
    case 'binary':
      return `(${show(node.left)} ${node.op} ${show(node.right)})`;
    case 'call':
      return `${node.name}(${node.args.map(show).join(', ')})`;
  }
}

const parsed = (text: string): string => show(parseFormula(text));

describe('formula precedence and grouping', () => {
  it.each([
    ['1 + 2 * 3', '(1 + (2 * 3))'],
    ['(1 + 2) * 3', '((1 + 2) * 3)'],
    ['1 - 2 - 3', '((1 - 2) - 3)'],
    ['8 / 4 / 2', '((8 / 4) / 2)'],
    ['7 % 3 * 2', '((7 % 3) * 2)'],
    ['-2 * 3', '(-2 * 3)'],
    ['-[a] * 3', '((-[a]) * 3)'],
    ['- -[a]', '(-(-[a]))'],
    ['2 - -3', '(2 - -3)'],
    ['1 + 2 & 3', '((1 + 2) & 3)'],
    ["[a] & 'x' = [b]", "(([a] & 'x') = [b])"],
    ['[a] < 1 = TRUE', '(([a] < 1) = TRUE)'],
    ['NOT [a] = 1 AND [b] OR [c]', '(((NOT ([a] = 1)) AND [b]) OR [c])'],
    ['[a] OR [b] AND [c]', '([a] OR ([b] AND [c]))'],
    ['[a] AND [b] AND [c]', '(([a] AND [b]) AND [c])'],
    ['NOT NOT [a]', '(NOT (NOT [a]))'],
    ['IF([a] > 1, -1, 2 * 3)', 'IF(([a] > 1), -1, (2 * 3))'],
    ['today()', 'today()'],
  ])('%s parses as %s', (text, expected) => {
    expect(parsed(text)).toBe(expected);
  });

  it.each([
    ['[a] != 1', '<>'],
    ['[a] <> 1', '<>'],
    ['[a] <= 1', '<='],
    ['[a] >= 1', '>='],
  ])('%s compares with %s', (text, op) => {
    const ast = parseFormula(text);
    expect(ast.kind === 'binary' && ast.op).toBe(op);
  });

  it('reads keywords in any case and keeps function names as written', () => {
    expect(parsed('true Or false aNd not null')).toBe('(TRUE OR (FALSE AND (NOT NULL)))');
    expect(parsed('Round([x], 2)')).toBe('Round([x], 2)');
  });
});

describe('formula literals and column references', () => {
  it.each<[string, FormulaAst['kind'], unknown]>([
    ['12', 'number', 12],
    ['3.5', 'number', 3.5],
    ['1e3', 'number', 1000],
    ['.5', 'number', 0.5],
    ['-0', 'number', 0],
    ["'it''s'", 'text', "it's"],
    ['"say ""hi"""', 'text', 'say "hi"'],
    [`'a"b'`, 'text', 'a"b'],
    ["''", 'text', ''],
    ["'line\nbreak; --'", 'text', 'line\nbreak; --'],
    ['[a]]b]', 'column', 'a]b'],
    ['[ spaced key ]', 'column', ' spaced key '],
    ['[it\'s "x"]', 'column', 'it\'s "x"'],
    ['[漢字 😀]', 'column', '漢字 😀'],
  ])('%s is a %s with value %j', (text, kind, value) => {
    const ast = parseFormula(text);
    expect(ast.kind).toBe(kind);
    expect(ast.kind === 'column' ? ast.key : 'value' in ast ? ast.value : undefined).toEqual(value);
  });

  it('records where each node is in the text', () => {
    const ast = parseFormula('  [a] + ROUND(1)');
    expect(ast).toMatchObject({ kind: 'binary', start: 2, end: 16 });
    if (ast.kind !== 'binary') throw new Error('binary expected');
    expect(ast.left).toMatchObject({ start: 2, end: 5 });
    expect(ast.right).toMatchObject({ kind: 'call', start: 8, nameEnd: 13, end: 16 });
  });

  it('counts parentheses into the span of what they enclose', () => {
    expect(parseFormula(' (1 + 2) ')).toMatchObject({ start: 1, end: 8 });
  });
});

describe('formula syntax errors', () => {
  it.each<[string, string, number, number]>([
    ['', 'The formula is empty', 0, 0],
    ['   ', 'The formula is empty', 0, 0],
    ['1 +', 'The formula ends too early: a value is missing', 3, 3],
    ['1 + 2)', 'Unexpected ")" at position 6', 5, 6],
    ['1 2', 'Unexpected "2" at position 3', 2, 3],
    ['(1 + 2', 'The "(" at position 1 has no closing ")"', 0, 1],
    ['IF(1, 2', 'The "(" at position 3 has no closing ")"', 2, 3],
    ['IF(1 2)', 'Unexpected "2" at position 6, expected "," or ")"', 5, 6],
    ['(1 2)', 'Unexpected "2" at position 4, expected ")"', 3, 4],
    ['IF(1,, 2)', 'Unexpected "," at position 6, expected a value', 5, 6],
    ['* 2', 'Unexpected "*" at position 1, expected a value', 0, 1],
    ['AND 1', 'Unexpected "AND" at position 1, expected a value', 0, 3],
    ["'abc", "The text starting at position 1 has no closing '", 0, 4],
    ['1 & "abc', 'The text starting at position 5 has no closing "', 4, 8],
    ['[abc', 'The column starting at position 1 has no closing ]', 0, 4],
    ['[abc]]', 'The column starting at position 1 has no closing ]', 0, 6],
    ['1 + []', 'Empty column name [] at position 5', 4, 6],
    ['1 # 2', 'Unexpected character "#" at position 3', 2, 3],
    ['1 + 😀', 'Unexpected character "😀" at position 5', 4, 6],
    ['1 + $1', 'Unexpected character "$" at position 5', 4, 5],
    ['1; DROP TABLE x', 'Unexpected character ";" at position 2', 1, 2],
    [
      'amount * 2',
      'Unknown name amount at position 1: write columns in brackets, like [amount], and text in quotes',
      0,
      6,
    ],
    ['1e999', 'The number 1e999 at position 1 is too large', 0, 5],
  ])('%j: %s', (text, message, start, end) => {
    const error = formulaError(() => parseFormula(text));
    expect(error.message).toBe(message);
    expect(error.code).toBe('formula_syntax');
    expect(error.location).toEqual(['function', start, end]);
  });

  it('refuses deep nesting with a ModelError, not a stack overflow', () => {
    const text = `${'('.repeat(4000)}1${')'.repeat(4000)}`;
    const error = formulaError(() => parseFormula(text));
    expect(error.message).toBe('The formula is nested too deeply at position 101');
    expect(error.location).toEqual(['function', 100, 101]);
    expect(formulaError(() => parseFormula('-'.repeat(9000) + '1')).code).toBe('formula_syntax');
    expect(formulaError(() => parseFormula('NOT '.repeat(2000) + '1')).code).toBe('formula_syntax');
  });

  it('refuses very long chains and texts', () => {
    expect(formulaError(() => parseFormula(`1${' + 1'.repeat(1500)}`)).message).toBe(
      'The formula is too long: split it into several columns',
    );
    const long = `'${'x'.repeat(10_000)}'`;
    expect(formulaError(() => parseFormula(long))).toMatchObject({
      message: 'The formula is too long (10002 characters, at most 10000)',
      location: ['function', 10_000, 10_002],
    });
  });

  it('accepts the longest chain allowed', () => {
    expect(() => parseFormula(`1${' + 1'.repeat(900)}`)).not.toThrow();
  });
});

describe('referencedColumnKeys', () => {
  it('lists each key once, in the order it first appears', () => {
    expect(referencedColumnKeys('[b] + [a] * [b] + IF([c], [a], -[d])')).toEqual(['b', 'a', 'c', 'd']);
    expect(referencedColumnKeys("CONCAT([x]]y], 'z', NOT [w])")).toEqual(['x]y', 'w']);
    expect(referencedColumnKeys('1 + 2')).toEqual([]);
  });

  it('only parses: unknown functions do not matter, syntax errors do', () => {
    expect(referencedColumnKeys('NOSUCH([a])')).toEqual(['a']);
    expect(() => referencedColumnKeys('[a] +')).toThrow(ModelError);
  });
});

import { describe, expect, it } from 'vitest';
import type { ModelErrorCode } from '../../src/engine/errors';
import type { FormulaScope } from '../../src/engine/formula';
import type { ColumnType } from '../../src/shared/tables';
import { compile, formulaError } from './formula-helpers';

/** [formula, message, code, start, end]: the error and the span of the text it points at. */
type ErrorCase = [string, string, ModelErrorCode, number, number];

/** Start and end of `part` inside `text`, for readable cases. */
function at(text: string, part: string): [number, number] {
  const start = text.indexOf(part);
  if (start < 0) throw new Error(`${part} is not in ${text}`);
  return [start, start + part.length];
}

function errorCase(text: string, message: string, code: ModelErrorCode, part: string = text): ErrorCase {
  return [text, message, code, ...at(text, part)];
}

describe('formula type errors', () => {
  it.each<ErrorCase>([
    errorCase('[amount] + [abcd]', 'Unknown column [abcd] at position 12', 'unknown_column', '[abcd]'),
    errorCase('[a]]b]', 'Unknown column [a]]b] at position 1', 'unknown_column'),
    errorCase('1 + FOO(1)', 'Unknown function FOO', 'unknown_function', 'FOO'),
    errorCase('sum([amount])', 'Unknown function SUM', 'unknown_function', 'sum'),
    errorCase('IF([active], 1)', 'IF expects 3 arguments, got 2', 'formula_type'),
    errorCase('1 + ROUND(1, 2, 3)', 'ROUND expects 1 or 2 arguments, got 3', 'formula_type', 'ROUND(1, 2, 3)'),
    errorCase('TODAY(1)', 'TODAY expects no arguments, got 1', 'formula_type'),
    errorCase('UPPER()', 'UPPER expects 1 argument, got 0', 'formula_type'),
    errorCase('COALESCE(1)', 'COALESCE expects at least 2 arguments, got 1', 'formula_type'),
    errorCase('CONCAT()', 'CONCAT expects at least 1 argument, got 0', 'formula_type'),
    errorCase('ROUND([name])', 'ROUND expects a Number as argument 1, got Text', 'formula_type', '[name]'),
    errorCase('ROUND(1, [born])', 'ROUND expects a Number as argument 2, got Date', 'formula_type', '[born]'),
    errorCase(
      'YEAR([amount])',
      'YEAR expects a Date or DateTime as argument 1, got Number',
      'formula_type',
      '[amount]',
    ),
    errorCase('HOUR([born])', 'HOUR expects a DateTime as argument 1, got Date', 'formula_type', '[born]'),
    errorCase('UPPER([tags])', 'UPPER expects a Text as argument 1, got Array', 'formula_type', '[tags]'),
    errorCase('IF([amount], 1, 2)', 'IF expects a Boolean as argument 1, got Number', 'formula_type', '[amount]'),
    errorCase(
      "IF([active], 1, 'x')",
      'IF expects a Number as argument 3 (like argument 2), got Text',
      'formula_type',
      "'x'",
    ),
    errorCase(
      "CASE([active], 'a', [amount] > 1, 2)",
      'CASE expects a Text as argument 4 (like argument 2), got Number',
      'formula_type',
      '2',
    ),
    errorCase(
      "CASE([amount], 'a', 'b')",
      'CASE expects a Boolean as argument 1, got Number',
      'formula_type',
      '[amount]',
    ),
    errorCase(
      'COALESCE(NULL, [amount], [name])',
      'COALESCE expects a Number as argument 3 (like argument 2), got Text',
      'formula_type',
      '[name]',
    ),
    errorCase(
      'LEAST([active], TRUE)',
      'LEAST expects a Number, Text, Date or DateTime as argument 1, got Boolean',
      'formula_type',
      '[active]',
    ),
    errorCase(
      'TO_NUMBER([born])',
      'TO_NUMBER expects a Text, Number or Boolean as argument 1, got Date',
      'formula_type',
      '[born]',
    ),
    errorCase(
      'DATE_TRUNC([name], [born])',
      "DATE_TRUNC expects a time grain in quotes as argument 1: 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter' or 'year'",
      'formula_type',
      '[name]',
    ),
    errorCase(
      "DATE_ADD([born], 1, 'fortnight')",
      "Unknown time grain \"fortnight\": use 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter' or 'year'",
      'formula_type',
      "'fortnight'",
    ),
    errorCase('[name] = 1', 'Cannot compare Text with Number', 'formula_type'),
    errorCase('[born] < [amount]', 'Cannot compare Date with Number', 'formula_type'),
    errorCase('[tags] = [tags]', 'Array values cannot be compared', 'formula_type'),
    errorCase('[meta] <> [point]', 'Json values cannot be compared', 'formula_type'),
    errorCase('[active] > FALSE', 'Booleans can only be compared with = or <>, not ">"', 'formula_type'),
    errorCase(
      '[amount] = NULL',
      'A comparison with NULL is never true: use ISBLANK(...) to test for an empty value',
      'formula_type',
    ),
    errorCase(
      '1 + ([born] + 1)',
      '"+" does not work on dates: use DATE_ADD to move a date, or DATE_DIFF for the time between two',
      'formula_type',
      '([born] + 1)',
    ),
    errorCase(
      '[seen] - [seen]',
      '"-" does not work on dates: use DATE_ADD to move a date, or DATE_DIFF for the time between two',
      'formula_type',
    ),
    errorCase("[name] + 'x'", '"+" adds Numbers: use & to join text', 'formula_type'),
    errorCase("[amount] * 'x'", '"*" expects Numbers on both sides, got Number and Text', 'formula_type'),
    errorCase('[active] / 2', '"/" expects Numbers on both sides, got Boolean and Number', 'formula_type'),
    errorCase('-[name]', '"-" expects a Number, got Text', 'formula_type', '[name]'),
    errorCase('NOT [amount]', 'NOT expects a Boolean, got Number', 'formula_type', '[amount]'),
    errorCase('[active] AND 1 OR [active]', 'AND expects a Boolean, got Number', 'formula_type', '1'),
  ])('%s: %s', (text, message, code, start, end) => {
    const error = formulaError(() => compile(text));
    expect(error.message).toBe(message);
    expect(error.code).toBe(code);
    expect(error.location).toEqual(['function', start, end]);
  });
});

describe('formula result types', () => {
  it.each<[string, ColumnType]>([
    ['[amount] + [qty]', 'Number'],
    ['[amount] / 0', 'Number'],
    ['[amount] > 1', 'Boolean'],
    ['[name] & 1 & [tags]', 'Text'],
    ['NULL', 'Text'],
    ['COALESCE(NULL, [amount])', 'Number'],
    ['IF([active], NULL, [born])', 'Date'],
    ['IF([active], [born], [seen])', 'DateTime'],
    ['LEAST([born], [seen])', 'DateTime'],
    ["GREATEST([name], 'm')", 'Text'],
    ["DATE_TRUNC('month', [born])", 'Date'],
    ["DATE_TRUNC('hour', [born])", 'DateTime'],
    ["DATE_TRUNC('day', [seen])", 'DateTime'],
    ["DATE_ADD([born], 1, 'week')", 'Date'],
    ["DATE_ADD([born], 1, 'minute')", 'DateTime'],
    ["DATE_DIFF('day', [born], [seen])", 'Number'],
    ['TODAY()', 'Date'],
    ['NOW()', 'DateTime'],
    ['TO_TEXT([meta])', 'Text'],
    ['TO_BOOLEAN([qty])', 'Boolean'],
    ['ISBLANK(NULL)', 'Boolean'],
    ['CASE([active], [tags])', 'Array'],
    ['[point]', 'Json'],
  ])('%s is %s', (text, type) => {
    expect(compile(text).type).toBe(type);
  });

  it('takes function names in any case', () => {
    expect(compile('round([amount])').type).toBe('Number');
    expect(compile("If([active], 'a', 'b')").type).toBe('Text');
  });

  it('reports the referenced columns in order, once each', () => {
    expect(compile('[qty] + [amount] * [qty]').columnKeys).toEqual(['qty', 'amount']);
  });

  it('uses the expression the scope gives for a column', () => {
    const scope: FormulaScope = {
      resolve: (key) =>
        key === 'total' ? { expr: { kind: 'column', name: 'amount', table: 's1' }, type: 'Number' } : undefined,
    };
    expect(compile('[total] * 2', scope).expr).toEqual({
      kind: 'arithmetic',
      op: '*',
      left: { kind: 'column', name: 'amount', table: 's1' },
      right: { kind: 'param', value: 2, type: 'bigint' },
    });
  });
});

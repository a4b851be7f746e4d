import { describe, expect, it } from 'vitest';
import { parseJsonText, positionAt } from '../../src/shared/json-text';

const value = (text: string) => {
  const result = parseJsonText(text);
  if (!result.ok) throw new Error(result.message);
  return result;
};
const failure = (text: string) => {
  const result = parseJsonText(text);
  if (result.ok) throw new Error(`${text} parsed`);
  return result;
};

describe('parseJsonText', () => {
  it('reads what JSON.parse reads, to the same value', () => {
    for (const text of [
      '{}',
      '[]',
      ' 0 ',
      '-1.5e+3',
      '"a\\"b\\\\c\\u00e9\\n"',
      'true',
      'null',
      '{"a": [1, {"b": null}], "c": "d"}',
      '{"__proto__": {"x": 1}, "constructor": 2}',
    ]) {
      expect(value(text).value, text).toEqual(JSON.parse(text));
    }
  });

  it('keeps __proto__ as a plain property, never as the prototype', () => {
    const parsed = value('{"__proto__": {"polluted": true}}').value as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((parsed as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('refuses what JSON.parse refuses, placing the error by line and column', () => {
    const cases: [string, string, number, number][] = [
      ['', 'Unexpected end of text: a value is missing', 1, 1],
      ['{"a": 1,}', 'Trailing comma before }', 1, 9],
      ['[1, 2,]', 'Trailing comma before ]', 1, 7],
      ['{\n  "a": 1\n  "b": 2\n}', "Expected ',' or '}' after a property value, found '\"'", 3, 3],
      ["{'a': 1}", "Expected a property name in double quotes, found '''", 1, 2],
      ['{"a" 1}', `Expected ':' after property name "a", found '1'`, 1, 6],
      ['{"a": tru}', "Unexpected 't': expected a value", 1, 7],
      ['"abc', 'Unterminated string', 1, 1],
      ['"a\nb"', 'Unterminated string (a line break inside quotes)', 1, 3],
      ['"\\x"', "Invalid escape '\\x' in a string", 1, 2],
      ['01', "Unexpected '1' after the end of the JSON value", 1, 2],
      ['{} x', "Unexpected 'x' after the end of the JSON value", 1, 4],
      ['-', "Unexpected '-'", 1, 1],
    ];
    for (const [text, message, line, column] of cases) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(failure(text), text).toEqual({ ok: false, message, position: { line, column } });
    }
  });

  it('tells where each value starts, by JSON pointer', () => {
    const text =
      '{\n  "settings": {\n    "properties": {\n      "a/b": { "type": "x" }\n    },\n    "required": ["a/b"]\n  }\n}';
    const parsed = value(text);
    expect(parsed.positionOf('')).toEqual({ line: 1, column: 1 });
    expect(parsed.positionOf('/settings')).toEqual({ line: 2, column: 15 });
    expect(parsed.positionOf('/settings/properties/a~1b/type')).toEqual({ line: 4, column: 24 });
    expect(parsed.positionOf('/settings/required/0')).toEqual({ line: 6, column: 18 });
    expect(parsed.positionOf('/settings/nothing')).toBeNull();
  });

  it('refuses nesting deeper than it reads, without overflowing the stack', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(failure(deep).message).toBe('Nested more than 256 levels deep');
  });

  it('counts lines and columns from 1', () => {
    expect(positionAt('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

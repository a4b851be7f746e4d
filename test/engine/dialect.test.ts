import { describe, expect, it } from 'vitest';
import { SqlDialect } from '../../src/engine/dialect';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { renderForDisplay } from '../../src/engine/display';
import { ModelError } from '../../src/engine/errors';

describe('identifier quoting', () => {
  it.each([
    ['name', '"name"'],
    ['a"b', '"a""b"'],
    ['"', '""""'],
    ["x'; DROP TABLE t; --", `"x'; DROP TABLE t; --"`],
    ['Ünï 漢 😀', '"Ünï 漢 😀"'],
    ['$1', '"$1"'],
  ])('quotes %j as %s', (name, quoted) => {
    expect(duckdbDialect.quoteIdentifier(name)).toBe(quoted);
  });

  it.each(['', 'a\0b'])('refuses %j with a ModelError', (name) => {
    expect(() => duckdbDialect.quoteIdentifier(name)).toThrow(ModelError);
  });
});

describe('literals for Show SQL', () => {
  it.each<[string | number | boolean | bigint | null, string]>([
    [null, 'NULL'],
    [true, 'TRUE'],
    [false, 'FALSE'],
    [42, '42'],
    [-3, '-3'],
    [0.1, '1e-1'],
    [0.30000000000000004, '3.0000000000000004e-1'],
    [1e21, '1e+21'],
    [12345678901234567890n, '12345678901234567890'],
    ["it's", "'it''s'"],
    ['a\0b', "('a' || chr(0) || 'b')"],
    ['\0', "('' || chr(0) || '')"],
    ['漢字', "'漢字'"],
  ])('renders %s as %s', (value, sql) => {
    expect(duckdbDialect.literal(value)).toBe(sql);
  });

  it('refuses numbers SQL cannot hold', () => {
    expect(() => duckdbDialect.literal(Number.NaN)).toThrow();
    expect(() => duckdbDialect.literal(Number.POSITIVE_INFINITY)).toThrow();
  });
});

describe('other hooks', () => {
  it('casts typed values and truncates dates', () => {
    expect(duckdbDialect.typed('$1', 'date')).toBe('CAST($1 AS DATE)');
    expect(duckdbDialect.typed('$1', 'text')).toBe('$1');
    expect(new SqlDialect().typed('$2', 'double')).toBe('CAST($2 AS DOUBLE PRECISION)');
    expect(duckdbDialect.truncateDate('"seen"', 'quarter')).toBe(`date_trunc('quarter', "seen")`);
  });

  it('can be extended by overriding one hook', () => {
    class Upper extends SqlDialect {
      override castToText(sql: string): string {
        return `TEXT(${sql})`;
      }
    }
    expect(new Upper().jsonToText('"j"')).toBe('TEXT("j")');
  });
});

describe('renderForDisplay', () => {
  it('replaces placeholders but not look-alikes inside quotes', () => {
    const sql = `SELECT "$1", '$2' FROM "t" WHERE "a""$1" = $1 AND b = $2 AND c = $10`;
    const parameters = ["x'", 5, 3, 4, 5, 6, 7, 8, 9, 'ten'];
    expect(renderForDisplay({ sql, parameters })).toBe(
      `SELECT "$1", '$2' FROM "t" WHERE "a""$1" = 'x''' AND b = 5 AND c = 'ten'`,
    );
  });

  it('refuses a placeholder without a value', () => {
    expect(() => renderForDisplay({ sql: 'SELECT $2', parameters: [1] })).toThrow('No value for placeholder $2');
  });
});

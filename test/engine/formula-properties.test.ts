/**
 * Properties of the formula language over generated input: any text either compiles or raises a
 * ModelError (never another error), what compiles runs on DuckDB, and hostile text in literals and
 * column keys never changes the shape of the SQL (values stay parameters, keys are quoted).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { renderForDisplay } from '../../src/engine/display';
import { ModelError } from '../../src/engine/errors';
import {
  FORMULA_FUNCTION_TABLE,
  compileFormula,
  referencedColumnKeys,
  type FormulaScope,
} from '../../src/engine/formula';
import { FORMULA_FUNCTIONS } from '../../src/shared/functions';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { createFixture } from './fixture';
import { fixtureScope, formulaSql, selectFormula } from './formula-helpers';
import type { ColumnType } from '../../src/shared/tables';

const SQL_PIECES = [
  "'",
  '"',
  ';',
  '--',
  '/*',
  '*/',
  '\\',
  '%',
  '_',
  '$1',
  '?',
  ')',
  '(',
  'é',
  '漢',
  '😀',
  '\n',
  '\0',
  ' ',
];
const nasty = fc.oneof(
  fc.string({
    unit: fc.constantFrom(...SQL_PIECES, "'; DROP TABLE static.t_fixture; --", '" OR 1=1 --'),
    maxLength: 8,
  }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** Formula text for a value or key, escaped the way the language says. */
const textLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;
const columnRef = (key: string): string => `[${key.replaceAll(']', ']]')}]`;

const BINARY_OPERATORS = ['+', '-', '*', '/', '%', '&', '=', '<>', '<', '>=', 'AND', 'OR'];

/** Pieces of formulas, so generated text often parses and type-checks, and sometimes runs. */
const FORMULA_PIECES = [
  ...FORMULA_FUNCTIONS.map((info) => `${info.name}(`),
  ...['[amount]', '[qty]', '[name]', '[active]', '[born]', '[seen]', '[tags]', '[meta]', '[nope]'],
  ...["'day'", "'month'", "'x'", '"y"', '1', '2.5', '0', '-', '1e3', 'TRUE', 'NULL'],
  ...['+', '*', '/', '%', '&', '=', '<>', '<', '>=', 'AND', 'OR', 'NOT', ',', ')', '(', ' ', ']', '['],
];
/** Well-formed formulas: they always parse, often type-check and then must run. */
const { formula: wellFormed } = fc.letrec<{ formula: string }>((tie) => ({
  formula: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('[amount]', '[qty]', '[name]', '[active]', '[born]', '[seen]', '[tags]', '[meta]'),
    fc.constantFrom('0', '-1', '2.5', "'a'", "'2024-01-31'", "'day'", "'month'", 'TRUE', 'FALSE', 'NULL'),
    fc
      .tuple(tie('formula'), fc.constantFrom(...BINARY_OPERATORS), tie('formula'))
      .map(([left, op, right]) => `(${left} ${op} ${right})`),
    fc.tuple(fc.constantFrom('-', 'NOT '), tie('formula')).map(([op, operand]) => `${op}${operand}`),
    fc
      .tuple(fc.constantFrom(...FORMULA_FUNCTION_TABLE), fc.array(tie('formula'), { maxLength: 4 }))
      .map(([fn, args]) => {
        const count = Math.min(Math.max(args.length, fn.minArgs), fn.maxArgs);
        const filled = Array.from({ length: count }, (_, index) => args[index] ?? '1');
        return `${fn.name}(${filled.join(', ')})`;
      }),
  ),
}));
const formulaText = fc.oneof(
  wellFormed,
  fc.array(fc.constantFrom(...FORMULA_PIECES), { maxLength: 12 }).map((pieces) => pieces.join('')),
  fc.string({ maxLength: 30 }),
);

/** The DuckDB types each formula type may come out as (Array and Json nulls may stay untyped). */
const SQL_TYPE_OF: Record<ColumnType, RegExp> = {
  Text: /^VARCHAR$/,
  Number: /^(INTEGER|BIGINT|HUGEINT|DOUBLE|DECIMAL\(\d+,\d+\))$/,
  Boolean: /^BOOLEAN$/,
  Date: /^DATE$/,
  DateTime: /^TIMESTAMP$/,
  Array: /\[\]$|^VARCHAR$/,
  Json: /^(JSON|STRUCT.*|VARCHAR)$/,
};

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await createFixture(db);
});

afterAll(() => db.close());

describe('formula properties', () => {
  it('compiles or raises a ModelError, and what compiles runs', async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(formulaText, async (text) => {
        let query;
        let type;
        try {
          query = selectFormula(text);
          type = compileFormula(text, fixtureScope).type;
        } catch (error) {
          expect(error).toBeInstanceOf(ModelError);
          return;
        }
        expect(() => referencedColumnKeys(text)).not.toThrow();
        try {
          await db.all(query);
        } catch (error) {
          // Known limit: DuckDB stops on arithmetic overflow and dates outside its range.
          expect(String(error)).toMatch(/Overflow|out of range|not in timestamp range/i);
          return;
        }
        ran += 1;
        const [row] = await db.rows(`SELECT typeof("v") AS t FROM (${renderForDisplay(query)}) AS q LIMIT 1`);
        expect(String(row?.['t'])).toMatch(SQL_TYPE_OF[type]);
      }),
      { numRuns: 400 },
    );
    expect(ran).toBeGreaterThan(20);
  }, 60_000);

  it('keeps hostile text literals as parameters', async () => {
    await fc.assert(
      fc.asyncProperty(nasty, async (value) => {
        const formula = `${textLiteral(value)} & [name]`;
        expect(formulaSql(formula)).toEqual({ sql: 'concat($1, CAST("name" AS VARCHAR))', parameters: [value] });
        const query = selectFormula(formula);
        const rows = await db.all(query);
        const names = await db.rows('SELECT name FROM static.t_fixture ORDER BY _row_id');
        expect(rows.map((row) => row['v'])).toEqual(names.map((row) => value + String(row['name'] ?? '')));
        expect(await db.rows(renderForDisplay(query))).toEqual(rows);
      }),
      { numRuns: 60 },
    );
  });

  it('quotes hostile column keys and nothing else', () => {
    fc.assert(
      fc.property(nasty, (key) => {
        fc.pre(key.length > 0);
        const scope: FormulaScope = {
          resolve: (candidate) =>
            candidate === key ? { expr: { kind: 'column', name: key }, type: 'Number' } : undefined,
        };
        const formula = `${columnRef(key)} + 1`;
        expect(referencedColumnKeys(formula)).toEqual([key]);
        const compiled = compileFormula(formula, scope);
        expect(compiled.columnKeys).toEqual([key]);
        if (key.includes('\0')) {
          // NUL cannot be quoted: a ModelError when the SQL is written, never SQL text.
          expect(() => formulaSql(formula, scope)).toThrow(ModelError);
          return;
        }
        expect(formulaSql(formula, scope)).toEqual({
          sql: `(${duckdbDialect.quoteIdentifier(key)} + CAST($1 AS BIGINT))`,
          parameters: [1],
        });
      }),
      { numRuns: 200 },
    );
  });

  it('never lets a function name or grain reach SQL unless whitelisted', () => {
    fc.assert(
      fc.property(nasty, (name) => {
        const call = `${name}([amount])`;
        try {
          compileFormula(call, { resolve: () => ({ expr: { kind: 'column', name: 'amount' }, type: 'Number' }) });
        } catch (error) {
          expect(error).toBeInstanceOf(ModelError);
        }
        const grainError = (() => {
          try {
            formulaSql(`DATE_TRUNC(${textLiteral(name)}, [born])`);
            return null;
          } catch (error) {
            return error;
          }
        })();
        // Either a real grain (the SQL then holds only that grain) or a ModelError.
        if (grainError === null) {
          const grain = name.trim().toLowerCase();
          expect(formulaSql(`DATE_TRUNC(${textLiteral(name)}, [born])`).sql).toBe(
            `CAST(date_trunc('${grain}', "born") AS DATE)`,
          );
        } else {
          expect(grainError).toBeInstanceOf(ModelError);
        }
      }),
      { numRuns: 200 },
    );
  });
});

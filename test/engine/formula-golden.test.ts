import { describe, expect, it } from 'vitest';
import { SqlDialect } from '../../src/engine/dialect';
import { renderForDisplay } from '../../src/engine/display';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import type { SqlValue } from '../../src/engine/sql';
import { formulaSql, selectFormula } from './formula-helpers';

describe('golden SQL of formulas (DuckDB)', () => {
  it.each<[string, string, SqlValue[]]>([
    // Literals are bound: whole numbers as BIGINT, others DOUBLE, text and booleans bare.
    ['12', 'CAST($1 AS BIGINT)', [12]],
    // Literals are exact: a fraction is the DECIMAL of its digits, bound as text.
    ['-3.5', 'CAST($1 AS DECIMAL(2,1))', ['-3.5']],
    ["'it''s'", '$1', ["it's"]],
    ['TRUE', '$1', [true]],
    ['NULL', 'CAST($1 AS VARCHAR)', [null]],
    // Columns are quoted; Text columns are read as text.
    ['[amount]', '"amount"', []],
    ['[name]', 'CAST("name" AS VARCHAR)', []],
    // Arithmetic is parenthesised; / is real division, / and % by zero are null.
    ['[amount] + [qty] * 2', '("amount" + ("qty" * CAST($1 AS BIGINT)))', [2]],
    ['[qty] / [amount]', '(CAST("qty" AS DOUBLE) / NULLIF("amount", 0))', []],
    ['7 / 2', '(CAST($1 AS DOUBLE) / NULLIF(CAST($2 AS BIGINT), 0))', [7, 2]],
    ['[qty] % 3', '("qty" % NULLIF(CAST($1 AS BIGINT), 0))', [3]],
    ['-[amount] - -5', '((- "amount") - CAST($1 AS BIGINT))', [-5]],
    // A NULL next to a number is a null of that number's SQL type, never a DOUBLE that widens it.
    ['1 + NULL', '(CAST($1 AS BIGINT) + CASE WHEN FALSE THEN CAST($2 AS BIGINT) END)', [1, 1]],
    // Text joins skip empty values and show lists and JSON as the grid does.
    [
      "[name] & ' ' & [amount]",
      `concat(CAST("name" AS VARCHAR), $1, ${duckdbDialect.numberToText('"amount"')})`,
      [' '],
    ],
    ['CONCAT([tags], [meta])', 'concat(array_to_string("tags", \', \'), CAST(to_json("meta") AS VARCHAR))', []],
    // Conditions.
    [
      "[amount] >= 10 AND NOT [active] OR [name] <> 'x'",
      '(("amount" >= CAST($1 AS BIGINT) AND NOT "active") OR CAST("name" AS VARCHAR) <> $2)',
      [10, 'x'],
    ],
    ['NOT [amount] = 1', 'NOT ("amount" = CAST($1 AS BIGINT))', [1]],
    ['([amount] > 1) = [active]', '("amount" > CAST($1 AS BIGINT)) = "active"', [1]],
    ['[born] < [seen]', 'CAST("born" AS TIMESTAMP) < "seen"', []],
    [
      "IF([amount] > 10, 'big', NULL)",
      'CASE WHEN "amount" > CAST($1 AS BIGINT) THEN $2 ELSE CAST($3 AS VARCHAR) END',
      [10, 'big', null],
    ],
    [
      "CASE([qty] > 5, 'a', [qty] > 0, 'b')",
      'CASE WHEN "qty" > CAST($1 AS BIGINT) THEN $2 WHEN "qty" > CAST($3 AS BIGINT) THEN $4 END',
      [5, 'a', 0, 'b'],
    ],
    ['COALESCE([amount], NULL, 0)', 'coalesce("amount", $1, CAST($2 AS BIGINT))', [null, 0]],
    ['ISBLANK([name])', `(CAST("name" AS VARCHAR) IS NULL OR CAST("name" AS VARCHAR) = '')`, []],
    ['ISBLANK([tags])', '("tags" IS NULL OR len("tags") = 0)', []],
    ['ISBLANK([amount] > 1)', '("amount" > CAST($1 AS BIGINT)) IS NULL', [1]],
    // Text functions; positions and counts are whole numbers, null when out of range.
    ["CONTAINS([name], 'al')", 'contains(lower(CAST("name" AS VARCHAR)), lower($1))', ['al']],
    ["STARTS_WITH([name], 'al')", 'starts_with(lower(CAST("name" AS VARCHAR)), lower($1))', ['al']],
    [
      'SUBSTRING([name], 2, 1.5)',
      'substring(CAST("name" AS VARCHAR), CAST($1 AS BIGINT), TRY_CAST(CAST($2 AS DECIMAL(2,1)) AS BIGINT))',
      [2, '1.5'],
    ],
    ["SPLIT_PART([name], ',', [qty])", 'split_part(CAST("name" AS VARCHAR), $1, TRY_CAST("qty" AS BIGINT))', [',']],
    // Numbers.
    // Rounding by written digits reads the number as a DECIMAL (a DOUBLE stays a DOUBLE).
    ['ROUND([amount], 2)', 'round(("amount" + CAST(0 AS DECIMAL(1,0))), CAST($1 AS INTEGER))', [2]],
    ['SQRT([amount])', 'CASE WHEN "amount" >= 0 THEN sqrt("amount") END', []],
    ['MOD([qty], 0)', '("qty" % NULLIF(CAST($1 AS BIGINT), 0))', [0]],
    ['GREATEST([born], [seen])', 'greatest(CAST("born" AS TIMESTAMP), "seen")', []],
    // Dates: grains are engine constants from a closed list, times in UTC.
    ["DATE_TRUNC('Week', [born])", 'CAST(date_trunc(\'week\', "born") AS DATE)', []],
    ["DATE_TRUNC('hour', [seen])", 'date_trunc(\'hour\', "seen")', []],
    ["DATE_ADD([seen], -2, 'quarter')", '("seen" + CAST($1 AS BIGINT) * INTERVAL \'3\' MONTH)', [-2]],
    ["DATE_ADD([born], [qty], 'day')", `CAST(("born" + TRY_CAST("qty" AS BIGINT) * INTERVAL '1' DAY) AS DATE)`, []],
    ["DATE_DIFF('month', [born], [seen])", 'date_diff(\'month\', CAST("born" AS TIMESTAMP), "seen")', []],
    ['WEEKDAY([born])', 'EXTRACT(ISODOW FROM "born")', []],
    ['TODAY()', "CAST((CURRENT_TIMESTAMP AT TIME ZONE 'UTC') AS DATE)", []],
    ['NOW()', "(CURRENT_TIMESTAMP AT TIME ZONE 'UTC')", []],
    [
      'DATE(2024, 2, 30)',
      "TRY_CAST(concat(CAST($1 AS BIGINT), '-', CAST($2 AS BIGINT), '-', CAST($3 AS BIGINT)) AS DATE)",
      [2024, 2, 30],
    ],
    // Conversions.
    // TO_NUMBER reads plain decimal notation only (not DuckDB's 1_000 or inf), and the grid's Infinity/NaN.
    [
      'TO_NUMBER([name])',
      'CASE WHEN ((trim(CAST("name" AS VARCHAR)) = \'Infinity\' OR trim(CAST("name" AS VARCHAR)) = \'-Infinity\'' +
        ' OR trim(CAST("name" AS VARCHAR)) = \'NaN\')' +
        " OR (upper(replace(lower(trim(CAST(\"name\" AS VARCHAR))), 'e', '')) =" +
        " replace(lower(trim(CAST(\"name\" AS VARCHAR))), 'e', '')" +
        ' AND replace(CAST("name" AS VARCHAR), \'_\', \'\') = CAST("name" AS VARCHAR)))' +
        ' THEN TRY_CAST(CAST("name" AS VARCHAR) AS DOUBLE) END',
      [],
    ],
    ['TO_NUMBER([active])', 'CAST("active" AS DOUBLE)', []],
    ['TO_DATE([seen])', 'CAST("seen" AS DATE)', []],
    ['TO_DATETIME([born])', 'CAST("born" AS TIMESTAMP)', []],
    ['TO_BOOLEAN([qty])', '"qty" <> 0', []],
    ['TO_TEXT([born])', 'CAST("born" AS VARCHAR)', []],
  ])('%s', (formula, sql, parameters) => {
    expect(formulaSql(formula)).toEqual({ sql, parameters });
  });
});

describe('golden SQL of a formula statement', () => {
  it('renders in a SELECT and inlines values for Show SQL', () => {
    const compiled = selectFormula("IF([amount] > 1.5, 'it''s', [name])");
    expect(compiled.parameters).toEqual(['1.5', "it's"]);
    expect(compiled.sql.replace(/\s+/g, ' ')).toBe(
      'SELECT "_row_id", CASE WHEN "amount" > CAST($1 AS DECIMAL(2,1)) THEN $2 ELSE CAST("name" AS VARCHAR) END AS "v"' +
        ' FROM "static"."t_fixture" ORDER BY "_row_id" ASC NULLS LAST',
    );
    expect(renderForDisplay(compiled)).toContain(`CAST('1.5' AS DECIMAL(2,1)) THEN 'it''s' ELSE`);
  });

  it('uses the standard dialect hooks where DuckDB does not differ', () => {
    const dialect = new SqlDialect();
    expect(dialect.addToDate('"d"', '$1', 'week')).toBe(`("d" + $1 * INTERVAL '7' DAY)`);
    expect(dialect.datePart('quarter', '"d"')).toBe('EXTRACT(QUARTER FROM "d")');
    expect(dialect.typeName('double')).toBe('DOUBLE PRECISION');
  });
});

/**
 * One filter per case with the WHERE text and parameters it must compile to, and the fixture rows
 * it must select. The golden test checks the text; the DuckDB test runs it (and its display form).
 */
import type { FilterSpec } from '../../src/engine/ir';
import type { SqlValue } from '../../src/engine/sql';

export interface FilterCase {
  filter: FilterSpec;
  where: string;
  parameters: SqlValue[];
  ids: number[];
}

const f = (
  columnKey: string,
  operator: FilterSpec['operator'],
  value?: FilterSpec['value'],
  value2?: FilterSpec['value2'],
): FilterSpec => ({ columnKey, operator, value, value2 });

const NAME = 'CAST("name" AS VARCHAR)';
const REF = 'CAST("ref" AS VARCHAR)';
const ts = (index: number): string => `CAST($${index} AS TIMESTAMP)`;

export const FILTER_CASES: FilterCase[] = [
  // Text: compared as text, case-sensitive except Contains; negatives keep empty cells.
  { filter: f('name', 'Equals', 'Alice'), where: `${NAME} = $1`, parameters: ['Alice'], ids: [1] },
  {
    filter: f('name', 'NotEquals', 'Alice'),
    where: `${NAME} IS DISTINCT FROM $1`,
    parameters: ['Alice'],
    ids: [2, 3, 4, 5, 6, 7, 8],
  },
  {
    filter: f('name', 'Contains', 'alice'),
    where: `contains(lower(${NAME}), lower($1))`,
    parameters: ['alice'],
    ids: [1, 8],
  },
  { filter: f('name', 'Contains', 'ÜNÏ'), where: `contains(lower(${NAME}), lower($1))`, parameters: ['ÜNÏ'], ids: [3] },
  {
    filter: f('name', 'Contains', '漢字 😀'),
    where: `contains(lower(${NAME}), lower($1))`,
    parameters: ['漢字 😀'],
    ids: [3],
  },
  { filter: f('name', 'Contains', '%'), where: `contains(lower(${NAME}), lower($1))`, parameters: ['%'], ids: [7] },
  // Row 6 holds "t_fixture".
  { filter: f('name', 'Contains', '_'), where: `contains(lower(${NAME}), lower($1))`, parameters: ['_'], ids: [6, 7] },
  { filter: f('name', 'Contains', "'"), where: `contains(lower(${NAME}), lower($1))`, parameters: ["'"], ids: [6] },
  {
    filter: f('name', 'Contains', '; drop'),
    where: `contains(lower(${NAME}), lower($1))`,
    parameters: ['; drop'],
    ids: [6],
  },
  {
    filter: f('name', 'NotContains', 'alice'),
    where: `("name" IS NULL OR NOT contains(lower(${NAME}), lower($1)))`,
    parameters: ['alice'],
    ids: [2, 3, 4, 5, 6, 7],
  },
  { filter: f('name', 'GreaterThan', 'b'), where: `${NAME} > $1`, parameters: ['b'], ids: [2, 3] },
  { filter: f('name', 'LessThan', 'B'), where: `${NAME} < $1`, parameters: ['B'], ids: [1, 4, 7, 8] },
  { filter: f('name', 'GreaterThanOrEquals', 'bob'), where: `${NAME} >= $1`, parameters: ['bob'], ids: [2, 3] },
  { filter: f('name', 'LessThanOrEquals', ' '), where: `${NAME} <= $1`, parameters: [' '], ids: [4] },
  {
    filter: f('name', 'Exists'),
    where: `("name" IS NOT NULL AND ${NAME} <> '')`,
    parameters: [],
    ids: [1, 2, 3, 6, 7, 8],
  },
  { filter: f('name', 'Empty'), where: `("name" IS NULL OR ${NAME} = '')`, parameters: [], ids: [4, 5] },
  // A Text column stored as UUID: compared and searched as the text the grid shows.
  {
    filter: f('ref', 'Equals', '00000000-0000-0000-0000-000000000001'),
    where: `${REF} = $1`,
    parameters: ['00000000-0000-0000-0000-000000000001'],
    ids: [1],
  },
  { filter: f('ref', 'Contains', '0005'), where: `contains(lower(${REF}), lower($1))`, parameters: ['0005'], ids: [5] },
  { filter: f('ref', 'Empty'), where: `("ref" IS NULL OR ${REF} = '')`, parameters: [], ids: [3] },

  // Number: whole numbers bind as BIGINT, others as DOUBLE; text values are parsed.
  { filter: f('amount', 'Equals', 10.5), where: `"amount" = CAST($1 AS DOUBLE)`, parameters: [10.5], ids: [1] },
  { filter: f('amount', 'Equals', ' 10.5 '), where: `"amount" = CAST($1 AS DOUBLE)`, parameters: [10.5], ids: [1] },
  { filter: f('amount', 'Equals', '-3'), where: `"amount" = CAST($1 AS BIGINT)`, parameters: [-3], ids: [2] },
  {
    filter: f('amount', 'NotEquals', 0),
    where: `"amount" IS DISTINCT FROM CAST($1 AS BIGINT)`,
    parameters: [0],
    ids: [1, 2, 4, 5, 6, 7, 8],
  },
  { filter: f('amount', 'GreaterThan', 7), where: `"amount" > CAST($1 AS BIGINT)`, parameters: [7], ids: [1, 5, 7] },
  {
    filter: f('amount', 'GreaterThanOrEquals', '7'),
    where: `"amount" >= CAST($1 AS BIGINT)`,
    parameters: [7],
    ids: [1, 5, 7, 8],
  },
  { filter: f('amount', 'LessThan', 0), where: `"amount" < CAST($1 AS BIGINT)`, parameters: [0], ids: [2] },
  {
    filter: f('amount', 'LessThanOrEquals', 2.25),
    where: `"amount" <= CAST($1 AS DOUBLE)`,
    parameters: [2.25],
    ids: [2, 3, 6],
  },
  {
    filter: f('amount', 'Between', 0, '10.5'),
    where: `("amount" BETWEEN CAST($1 AS BIGINT) AND CAST($2 AS DOUBLE))`,
    parameters: [0, 10.5],
    ids: [1, 3, 6, 8],
  },
  {
    filter: f('amount', 'Between', '1e2', 1e6),
    where: `("amount" BETWEEN CAST($1 AS BIGINT) AND CAST($2 AS BIGINT))`,
    parameters: [100, 1000000],
    ids: [5, 7],
  },
  { filter: f('amount', 'Exists'), where: `"amount" IS NOT NULL`, parameters: [], ids: [1, 2, 3, 5, 6, 7, 8] },
  { filter: f('amount', 'Empty'), where: `"amount" IS NULL`, parameters: [], ids: [4] },
  { filter: f('qty', 'Equals', 4000000000), where: `"qty" = CAST($1 AS BIGINT)`, parameters: [4000000000], ids: [5] },
  { filter: f('qty', 'GreaterThan', ' 10 '), where: `"qty" > CAST($1 AS BIGINT)`, parameters: [10], ids: [5, 6, 8] },
  { filter: f('qty', 'LessThan', -4.5), where: `"qty" < CAST($1 AS DOUBLE)`, parameters: [-4.5], ids: [7] },

  // Boolean
  { filter: f('active', 'Equals', true), where: `"active" = $1`, parameters: [true], ids: [1, 4, 6, 8] },
  { filter: f('active', 'Equals', 'FALSE'), where: `"active" = $1`, parameters: [false], ids: [2, 5, 7] },
  {
    filter: f('active', 'NotEquals', true),
    where: `"active" IS DISTINCT FROM $1`,
    parameters: [true],
    ids: [2, 3, 5, 7],
  },
  { filter: f('active', 'Exists'), where: `"active" IS NOT NULL`, parameters: [], ids: [1, 2, 4, 5, 6, 7, 8] },
  { filter: f('active', 'Empty'), where: `"active" IS NULL`, parameters: [], ids: [3] },

  // Date: ISO text, cast in SQL; a date-time value counts by the date written in it.
  {
    filter: f('born', 'Equals', '2000-02-29'),
    where: `"born" = CAST($1 AS DATE)`,
    parameters: ['2000-02-29'],
    ids: [3],
  },
  {
    filter: f('born', 'Equals', '2024-03-01T00:00:00+01:00'),
    where: `"born" = CAST($1 AS DATE)`,
    parameters: ['2024-03-01'],
    ids: [5],
  },
  {
    filter: f('born', 'NotEquals', '1990-01-15'),
    where: `"born" IS DISTINCT FROM CAST($1 AS DATE)`,
    parameters: ['1990-01-15'],
    ids: [2, 3, 4, 5, 6, 7, 8],
  },
  {
    filter: f('born', 'GreaterThan', '2000-01-01'),
    where: `"born" > CAST($1 AS DATE)`,
    parameters: ['2000-01-01'],
    ids: [3, 5, 7, 8],
  },
  {
    filter: f('born', 'LessThan', '1986-01-01'),
    where: `"born" < CAST($1 AS DATE)`,
    parameters: ['1986-01-01'],
    ids: [2, 6],
  },
  {
    filter: f('born', 'GreaterThanOrEquals', '2024-02-29'),
    where: `"born" >= CAST($1 AS DATE)`,
    parameters: ['2024-02-29'],
    ids: [5, 7, 8],
  },
  {
    filter: f('born', 'LessThanOrEquals', '1970-01-01'),
    where: `"born" <= CAST($1 AS DATE)`,
    parameters: ['1970-01-01'],
    ids: [6],
  },
  {
    filter: f('born', 'Between', '1980-01-01', '1990-01-15'),
    where: `("born" BETWEEN CAST($1 AS DATE) AND CAST($2 AS DATE))`,
    parameters: ['1980-01-01', '1990-01-15'],
    ids: [1, 2],
  },
  { filter: f('born', 'Empty'), where: `"born" IS NULL`, parameters: [], ids: [4] },

  // DateTime: instants in UTC; a date alone is the whole UTC day.
  {
    filter: f('seen', 'Equals', '2024-03-01'),
    where: `("seen" >= ${ts(1)} AND "seen" < ${ts(2)})`,
    parameters: ['2024-03-01 00:00:00', '2024-03-02 00:00:00'],
    ids: [1, 2, 7],
  },
  {
    filter: f('seen', 'Equals', '2024-03-01T10:00:00Z'),
    where: `"seen" = ${ts(1)}`,
    parameters: ['2024-03-01 10:00:00'],
    ids: [1],
  },
  {
    filter: f('seen', 'Equals', '2024-03-01T11:00:00+01:00'),
    where: `"seen" = ${ts(1)}`,
    parameters: ['2024-03-01 10:00:00'],
    ids: [1],
  },
  {
    filter: f('seen', 'Equals', '2023-12-31T12:30:00.123456Z'),
    where: `"seen" = ${ts(1)}`,
    parameters: ['2023-12-31 12:30:00.123456'],
    ids: [6],
  },
  {
    filter: f('seen', 'NotEquals', '2024-03-01'),
    where: `("seen" IS NULL OR "seen" < ${ts(1)} OR "seen" >= ${ts(2)})`,
    parameters: ['2024-03-01 00:00:00', '2024-03-02 00:00:00'],
    ids: [3, 4, 5, 6, 8],
  },
  {
    filter: f('seen', 'NotEquals', '2024-03-01 10:00'),
    where: `"seen" IS DISTINCT FROM ${ts(1)}`,
    parameters: ['2024-03-01 10:00:00'],
    ids: [2, 3, 4, 5, 6, 7, 8],
  },
  {
    filter: f('seen', 'GreaterThan', '2024-03-01'),
    where: `"seen" >= ${ts(1)}`,
    parameters: ['2024-03-02 00:00:00'],
    ids: [3, 8],
  },
  {
    filter: f('seen', 'GreaterThanOrEquals', '2024-03-01'),
    where: `"seen" >= ${ts(1)}`,
    parameters: ['2024-03-01 00:00:00'],
    ids: [1, 2, 3, 7, 8],
  },
  {
    filter: f('seen', 'LessThan', '2024-03-01'),
    where: `"seen" < ${ts(1)}`,
    parameters: ['2024-03-01 00:00:00'],
    ids: [5, 6],
  },
  {
    filter: f('seen', 'LessThanOrEquals', '2024-03-01'),
    where: `"seen" < ${ts(1)}`,
    parameters: ['2024-03-02 00:00:00'],
    ids: [1, 2, 5, 6, 7],
  },
  {
    filter: f('seen', 'Between', '2024-02-29', '2024-03-01'),
    where: `("seen" >= ${ts(1)} AND "seen" < ${ts(2)})`,
    parameters: ['2024-02-29 00:00:00', '2024-03-02 00:00:00'],
    ids: [1, 2, 5, 7],
  },
  {
    filter: f('seen', 'Between', '2024-03-01T00:00:00+01:00', '2024-03-01T10:00:00Z'),
    where: `("seen" BETWEEN ${ts(1)} AND ${ts(2)})`,
    parameters: ['2024-02-29 23:00:00', '2024-03-01 10:00:00'],
    ids: [1, 5, 7],
  },
  {
    filter: f('seen', 'GreaterThan', '2024-03-01T23:59:59.999Z'),
    where: `"seen" > ${ts(1)}`,
    parameters: ['2024-03-01 23:59:59.999'],
    ids: [3, 8],
  },
  { filter: f('seen', 'Exists'), where: `"seen" IS NOT NULL`, parameters: [], ids: [1, 2, 3, 5, 6, 7, 8] },

  // Array: searched in its elements' text joined by ', '; empty is null or [].
  {
    filter: f('tags', 'Contains', 'RED'),
    where: `contains(lower(array_to_string("tags", ', ')), lower($1))`,
    parameters: ['RED'],
    ids: [1, 5],
  },
  {
    filter: f('tags', 'Contains', "it's"),
    where: `contains(lower(array_to_string("tags", ', ')), lower($1))`,
    parameters: ["it's"],
    ids: [6],
  },
  {
    filter: f('tags', 'Contains', 'red, blue'),
    where: `contains(lower(array_to_string("tags", ', ')), lower($1))`,
    parameters: ['red, blue'],
    ids: [1],
  },
  {
    filter: f('tags', 'NotContains', 'red'),
    where: `("tags" IS NULL OR NOT contains(lower(array_to_string("tags", ', ')), lower($1)))`,
    parameters: ['red'],
    ids: [2, 3, 4, 6, 7, 8],
  },
  {
    filter: f('tags', 'Exists'),
    where: `("tags" IS NOT NULL AND len("tags") <> 0)`,
    parameters: [],
    ids: [1, 3, 5, 6, 7, 8],
  },
  { filter: f('tags', 'Empty'), where: `("tags" IS NULL OR len("tags") = 0)`, parameters: [], ids: [2, 4] },

  // Json: searched in its minified JSON text, keys included; empty is null or JSON null.
  {
    filter: f('meta', 'Contains', 'PARIS'),
    where: `contains(lower(CAST(to_json("meta") AS VARCHAR)), lower($1))`,
    parameters: ['PARIS'],
    ids: [1],
  },
  {
    filter: f('meta', 'Contains', 'deep'),
    where: `contains(lower(CAST(to_json("meta") AS VARCHAR)), lower($1))`,
    parameters: ['deep'],
    ids: [6],
  },
  {
    filter: f('meta', 'Contains', `"note":"it's"`),
    where: `contains(lower(CAST(to_json("meta") AS VARCHAR)), lower($1))`,
    parameters: [`"note":"it's"`],
    ids: [5],
  },
  {
    filter: f('meta', 'Contains', 'city'),
    where: `contains(lower(CAST(to_json("meta") AS VARCHAR)), lower($1))`,
    parameters: ['city'],
    ids: [1],
  },
  {
    filter: f('meta', 'NotContains', 'paris'),
    where: `("meta" IS NULL OR NOT contains(lower(CAST(to_json("meta") AS VARCHAR)), lower($1)))`,
    parameters: ['paris'],
    ids: [2, 3, 4, 5, 6, 7, 8],
  },
  {
    filter: f('meta', 'Exists'),
    where: `("meta" IS NOT NULL AND CAST(to_json("meta") AS VARCHAR) <> 'null')`,
    parameters: [],
    ids: [1, 2, 5, 6, 7, 8],
  },
  {
    filter: f('meta', 'Empty'),
    where: `("meta" IS NULL OR CAST(to_json("meta") AS VARCHAR) = 'null')`,
    parameters: [],
    ids: [3, 4],
  },
  // A Json column stored as a STRUCT: searched as JSON too, not DuckDB's {'x': 1} text.
  {
    filter: f('point', 'Contains', '"label":"home"'),
    where: `contains(lower(CAST(to_json("point") AS VARCHAR)), lower($1))`,
    parameters: ['"label":"home"'],
    ids: [1],
  },
  {
    filter: f('point', 'Contains', 'home'),
    where: `contains(lower(CAST(to_json("point") AS VARCHAR)), lower($1))`,
    parameters: ['home'],
    ids: [1],
  },
  {
    filter: f('point', 'Exists'),
    where: `("point" IS NOT NULL AND CAST(to_json("point") AS VARCHAR) <> 'null')`,
    parameters: [],
    ids: [1, 3],
  },
];

/**
 * The functions of the formula language of model function columns, as the editor lists them
 * (GET /api/models/functions). The engine's whitelist (src/engine/formula/functions) is checked
 * against this list by a test: same names, categories, argument counts and result types.
 *
 * Signature notation: `name?` is optional, `...` repeats the arguments before it, and the type
 * after `→` is a column type, or words when it follows the arguments.
 */

export type FormulaFunctionCategory = 'Logic' | 'Text' | 'Number' | 'Date' | 'Conversion';

export interface FormulaFunctionInfo {
  name: string;
  category: FormulaFunctionCategory;
  signature: string;
  description: string;
  example: string;
}

/** How the language itself is written, for the editor's help panel. */
export const FORMULA_SYNTAX_HELP: readonly string[] = [
  'Columns by their name in square brackets: [Amount]. Type [ to pick one. A ] inside a name is written twice: [Net]] total].',
  'Names are matched exactly, else ignoring case. Two columns with the same name cannot be told apart: rename one first.',
  "Text in single or double quotes: 'Paris'. A quote inside is written twice: 'it''s'.",
  'Numbers: 12, 3.5, 1e3. Also TRUE, FALSE and NULL (an empty value).',
  'Operators: + - * / % on numbers (dividing by zero gives an empty value), & joins text,',
  '= <> != < <= > >= compare two values of the same type, and NOT, AND, OR combine conditions.',
  'Dates move with DATE_ADD and DATE_DIFF, not + and -. Times are in UTC.',
];

export const FORMULA_FUNCTIONS: readonly FormulaFunctionInfo[] = [
  // Logic
  {
    name: 'IF',
    category: 'Logic',
    signature: 'IF(condition, then, else) → type of then and else',
    description:
      'The second argument when the condition is true, otherwise the third (also when the condition is empty).',
    example: "IF([amount] > 100, 'large', 'small')",
  },
  {
    name: 'CASE',
    category: 'Logic',
    signature: 'CASE(condition, value, ...) → type of the values',
    description:
      'Conditions and values in pairs: the value of the first true condition. A last odd argument is the value when none is true; without it, the result is empty.',
    example: "CASE([amount] > 1000, 'high', [amount] > 100, 'medium', 'low')",
  },
  {
    name: 'COALESCE',
    category: 'Logic',
    signature: 'COALESCE(value, value, ...) → type of the values',
    description: 'The first value that is not empty.',
    example: 'COALESCE([discount], 0)',
  },
  {
    name: 'ISBLANK',
    category: 'Logic',
    signature: 'ISBLANK(value) → Boolean',
    description: 'True when the value is empty: no value, empty text, an empty list or JSON null.',
    example: 'ISBLANK([email])',
  },
  // Text
  {
    name: 'CONCAT',
    category: 'Text',
    signature: 'CONCAT(value, ...) → Text',
    description: 'Joins values as text; empty values add nothing. The & operator does the same.',
    example: "CONCAT([first_name], ' ', [last_name])",
  },
  {
    name: 'UPPER',
    category: 'Text',
    signature: 'UPPER(text) → Text',
    description: 'The text in capital letters.',
    example: 'UPPER([city])',
  },
  {
    name: 'LOWER',
    category: 'Text',
    signature: 'LOWER(text) → Text',
    description: 'The text in small letters.',
    example: 'LOWER([email])',
  },
  {
    name: 'TRIM',
    category: 'Text',
    signature: 'TRIM(text) → Text',
    description: 'The text without spaces at the start and the end.',
    example: 'TRIM([name])',
  },
  {
    name: 'LENGTH',
    category: 'Text',
    signature: 'LENGTH(text) → Number',
    description: 'The number of characters in the text.',
    example: 'LENGTH([name])',
  },
  {
    name: 'LEFT',
    category: 'Text',
    signature: 'LEFT(text, count) → Text',
    description: 'The first characters of the text.',
    example: 'LEFT([name], 3)',
  },
  {
    name: 'RIGHT',
    category: 'Text',
    signature: 'RIGHT(text, count) → Text',
    description: 'The last characters of the text.',
    example: 'RIGHT([name], 3)',
  },
  {
    name: 'SUBSTRING',
    category: 'Text',
    signature: 'SUBSTRING(text, start, length?) → Text',
    description:
      'Part of the text from a position (the first character is 1), to the end or for a number of characters.',
    example: 'SUBSTRING([name], 2, 3)',
  },
  {
    name: 'REPLACE',
    category: 'Text',
    signature: 'REPLACE(text, search, replacement) → Text',
    description: 'The text with every occurrence of search replaced (case-sensitive).',
    example: "REPLACE([city], '-', ' ')",
  },
  {
    name: 'CONTAINS',
    category: 'Text',
    signature: 'CONTAINS(text, part) → Boolean',
    description: 'True when the text contains the part, ignoring case.',
    example: "CONTAINS([email], '@example.com')",
  },
  {
    name: 'STARTS_WITH',
    category: 'Text',
    signature: 'STARTS_WITH(text, part) → Boolean',
    description: 'True when the text starts with the part, ignoring case.',
    example: "STARTS_WITH([name], 'Dr')",
  },
  {
    name: 'ENDS_WITH',
    category: 'Text',
    signature: 'ENDS_WITH(text, part) → Boolean',
    description: 'True when the text ends with the part, ignoring case.',
    example: "ENDS_WITH([email], '.org')",
  },
  {
    name: 'SPLIT_PART',
    category: 'Text',
    signature: 'SPLIT_PART(text, separator, index) → Text',
    description:
      'The piece at a position (from 1) of the text split at each separator; empty text past the last piece.',
    example: "SPLIT_PART([email], '@', 2)",
  },
  // Number
  {
    name: 'ROUND',
    category: 'Number',
    signature: 'ROUND(number, digits?) → Number',
    description: 'The number rounded to a number of decimal places (none by default); halves round away from zero.',
    example: 'ROUND([amount] * 1.2, 2)',
  },
  {
    name: 'FLOOR',
    category: 'Number',
    signature: 'FLOOR(number) → Number',
    description: 'The largest whole number not above the number.',
    example: 'FLOOR([amount])',
  },
  {
    name: 'CEIL',
    category: 'Number',
    signature: 'CEIL(number) → Number',
    description: 'The smallest whole number not below the number.',
    example: 'CEIL([amount])',
  },
  {
    name: 'ABS',
    category: 'Number',
    signature: 'ABS(number) → Number',
    description: 'The number without its sign.',
    example: 'ABS([amount])',
  },
  {
    name: 'POWER',
    category: 'Number',
    signature: 'POWER(base, exponent) → Number',
    description: 'The base raised to the exponent.',
    example: 'POWER([quantity], 2)',
  },
  {
    name: 'SQRT',
    category: 'Number',
    signature: 'SQRT(number) → Number',
    description: 'The square root; empty for a negative number.',
    example: 'SQRT([amount])',
  },
  {
    name: 'MOD',
    category: 'Number',
    signature: 'MOD(number, divisor) → Number',
    description: 'The remainder of the division, with the sign of the number; empty when the divisor is 0. Same as %.',
    example: 'MOD([quantity], 7)',
  },
  {
    name: 'LEAST',
    category: 'Number',
    signature: 'LEAST(value, value, ...) → type of the values',
    description: 'The smallest of the values (numbers, texts or dates), ignoring empty ones.',
    example: 'LEAST([amount], 100)',
  },
  {
    name: 'GREATEST',
    category: 'Number',
    signature: 'GREATEST(value, value, ...) → type of the values',
    description: 'The largest of the values (numbers, texts or dates), ignoring empty ones.',
    example: 'GREATEST([amount], 0)',
  },
  // Date
  {
    name: 'TODAY',
    category: 'Date',
    signature: 'TODAY() → Date',
    description: "Today's date (UTC).",
    example: "DATE_DIFF('day', [birth_date], TODAY())",
  },
  {
    name: 'NOW',
    category: 'Date',
    signature: 'NOW() → DateTime',
    description: 'The current date and time (UTC).',
    example: "DATE_DIFF('hour', [created_at], NOW())",
  },
  {
    name: 'DATE_TRUNC',
    category: 'Date',
    signature: 'DATE_TRUNC(grain, date) → type of date',
    description:
      "The start of the second, minute, hour, day, week (Monday), month, quarter or year the date falls in. The grain is text in quotes, e.g. 'month'.",
    example: "DATE_TRUNC('month', [created_at])",
  },
  {
    name: 'YEAR',
    category: 'Date',
    signature: 'YEAR(date) → Number',
    description: 'The year of the date.',
    example: 'YEAR([created_at])',
  },
  {
    name: 'QUARTER',
    category: 'Date',
    signature: 'QUARTER(date) → Number',
    description: 'The quarter of the date, 1 to 4.',
    example: 'QUARTER([created_at])',
  },
  {
    name: 'MONTH',
    category: 'Date',
    signature: 'MONTH(date) → Number',
    description: 'The month of the date, 1 to 12.',
    example: 'MONTH([created_at])',
  },
  {
    name: 'DAY',
    category: 'Date',
    signature: 'DAY(date) → Number',
    description: 'The day of the month, 1 to 31.',
    example: 'DAY([created_at])',
  },
  {
    name: 'WEEKDAY',
    category: 'Date',
    signature: 'WEEKDAY(date) → Number',
    description: 'The day of the week: 1 for Monday to 7 for Sunday.',
    example: 'WEEKDAY([created_at]) >= 6',
  },
  {
    name: 'HOUR',
    category: 'Date',
    signature: 'HOUR(datetime) → Number',
    description: 'The hour of a date and time, 0 to 23 (UTC).',
    example: 'HOUR([created_at])',
  },
  {
    name: 'DATE_ADD',
    category: 'Date',
    signature: 'DATE_ADD(date, count, grain) → type of date',
    description:
      "The date moved by a whole number of grains ('day', 'week', 'month', ...); negative counts move back. A Date moved by hours or less becomes a DateTime.",
    example: "DATE_ADD([birth_date], 30, 'day')",
  },
  {
    name: 'DATE_DIFF',
    category: 'Date',
    signature: 'DATE_DIFF(grain, start, end) → Number',
    description:
      'How many grain boundaries (e.g. month starts) lie between start and end; negative when end is earlier.',
    example: "DATE_DIFF('day', [birth_date], TODAY())",
  },
  {
    name: 'DATE',
    category: 'Date',
    signature: 'DATE(year, month, day) → Date',
    description: 'The date of a year, month and day; empty when that day does not exist.',
    example: 'DATE(YEAR([created_at]), 12, 31)',
  },
  // Conversion
  {
    name: 'TO_TEXT',
    category: 'Conversion',
    signature: 'TO_TEXT(value) → Text',
    description: 'The value as the text shown in the grid (lists joined by ", ", JSON as JSON text).',
    example: "TO_TEXT([amount]) & ' EUR'",
  },
  {
    name: 'TO_NUMBER',
    category: 'Conversion',
    signature: 'TO_NUMBER(value) → Number',
    description: 'Text or a Boolean (1 or 0) as a number; empty when the text is not a number.',
    example: "TO_NUMBER(SPLIT_PART([name], '-', 2))",
  },
  {
    name: 'TO_DATE',
    category: 'Conversion',
    signature: 'TO_DATE(value) → Date',
    description: 'Text (YYYY-MM-DD) or a DateTime as a date; empty when the text is not a date.',
    example: 'TO_DATE([created_at])',
  },
  {
    name: 'TO_DATETIME',
    category: 'Conversion',
    signature: 'TO_DATETIME(value) → DateTime',
    description: 'Text (YYYY-MM-DD HH:MM:SS) or a Date as a date and time; empty when the text is not one.',
    example: 'TO_DATETIME([birth_date])',
  },
  {
    name: 'TO_BOOLEAN',
    category: 'Conversion',
    signature: 'TO_BOOLEAN(value) → Boolean',
    description:
      "Text ('true', 'false', 'yes', 'no', '1', '0') or a Number (not 0 is true) as a Boolean; empty otherwise.",
    example: 'TO_BOOLEAN([quantity])',
  },
];

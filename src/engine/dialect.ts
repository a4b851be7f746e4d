/**
 * What changes from one SQL database to another, as small methods a dialect overrides (the way
 * Kysely's dialects do). `SqlDialect` is standard SQL with `$n` placeholders; `DuckDbDialect`
 * (dialects/duckdb.ts) is the default. The renderer reaches SQL text only through these methods.
 */
import { ModelError, type ModelErrorLocation } from './errors';
import type { DatePart, SortOrder, SqlFunctionName, SqlType, TextShape } from './sql-ast';
import type { SqlValue } from './sql';

import { TIME_GRAINS, type TimeGrain } from '../shared/models';
import type { PivotTimeGrain } from '../shared/pivots';

// The spec's time grains are shared with the client (join date precision).
export { TIME_GRAINS, type TimeGrain };

/** The spec's time grains plus `week` (ISO weeks, from Monday), which formulas also accept. */
export const DATE_GRAINS = [...TIME_GRAINS, 'week'] as const;
export type DateGrain = (typeof DATE_GRAINS)[number];

/** Each grain as a standard interval: a count of a unit (weeks are 7 days, quarters 3 months). */
const GRAIN_INTERVALS: Record<DateGrain, [number, string]> = {
  second: [1, 'SECOND'],
  minute: [1, 'MINUTE'],
  hour: [1, 'HOUR'],
  day: [1, 'DAY'],
  week: [7, 'DAY'],
  month: [1, 'MONTH'],
  quarter: [3, 'MONTH'],
  year: [1, 'YEAR'],
};

const DATE_PART_FIELDS: Record<DatePart, string> = {
  year: 'YEAR',
  quarter: 'QUARTER',
  month: 'MONTH',
  day: 'DAY',
  isodow: 'ISODOW',
  hour: 'HOUR',
};

export interface DialectCapabilities {
  /**
   * Pages with offset + size up to this many rows are compiled as plain LIMIT/OFFSET, because the
   * database already fetches wide columns only for the rows it keeps (DuckDB's late materialization,
   * `late_materialization_max_rows`); deeper pages select row keys first. 0 = always keys first.
   */
  nativeLateMaterializationRows: number;
  /**
   * Filtered pages with offset + size up to this many rows also stay plain: the filter reads its
   * columns anyway, and selecting keys first would scan them twice (measured on 10M rows in DuckDB:
   * 500 ms plain against 850 ms keys-first). 0 = no exception for filtered pages.
   */
  filteredPlainRows: number;
}

/** Refuses names no database can hold; the message names the place, the code lets the server answer 400. */
export function checkIdentifier(name: string, location: ModelErrorLocation = []): void {
  if (name.length === 0) throw new ModelError('A name cannot be empty', 'invalid_identifier', location);
  if (name.includes('\0')) {
    throw new ModelError(
      `The name "${name.replaceAll('\0', '\\0')}" contains a NUL character`,
      'invalid_identifier',
      location,
    );
  }
}

export class SqlDialect {
  readonly name: string = 'sql';
  readonly capabilities: DialectCapabilities = { nativeLateMaterializationRows: 0, filteredPlainRows: 0 };

  /** The one way an identifier enters SQL: double quotes, inner quotes doubled, NUL refused. */
  quoteIdentifier(name: string): string {
    checkIdentifier(name);
    return `"${name.replaceAll('"', '""')}"`;
  }

  /** `$1`, `$2`, ... (1-based). A dialect with `?` placeholders would also extend display.ts. */
  placeholder(index: number): string {
    return `$${index}`;
  }

  /** A value as SQL text, for "Show SQL" only; queries that run bind values instead. */
  literal(value: SqlValue): string {
    if (value === null) return 'NULL';
    switch (typeof value) {
      case 'boolean':
        return value ? 'TRUE' : 'FALSE';
      case 'bigint':
        return value.toString();
      case 'number':
        return this.numberLiteral(value);
      case 'string':
        return this.stringLiteral(value);
    }
  }

  /** Exact integers as digits; other numbers in exponent form, which databases read as a double exactly. */
  protected numberLiteral(value: number): string {
    if (!Number.isFinite(value)) throw new Error(`Cannot render ${value} as an SQL number`);
    return Number.isSafeInteger(value) ? String(value) : value.toExponential();
  }

  protected stringLiteral(value: string): string {
    if (value.includes('\0')) throw new Error('This dialect cannot render NUL in a string literal');
    return `'${value.replaceAll("'", "''")}'`;
  }

  /** SQL name of a bound value's type; the exact numeric ones are DuckDB's names, upper case. */
  typeName(type: SqlType): string {
    const names: Partial<Record<SqlType, string>> = {
      text: 'VARCHAR',
      integer: 'INTEGER',
      bigint: 'BIGINT',
      double: 'DOUBLE PRECISION',
      boolean: 'BOOLEAN',
      date: 'DATE',
      timestamp: 'TIMESTAMP',
    };
    return names[type] ?? type.toUpperCase();
  }

  /**
   * A placeholder (or, for display, a literal) with its type made explicit. Text and booleans bind
   * unambiguously; numbers, dates and times are cast so the comparison type never depends on the driver.
   */
  typed(valueSql: string, type: SqlType): string {
    return type === 'text' || type === 'boolean' ? valueSql : `CAST(${valueSql} AS ${this.typeName(type)})`;
  }

  /**
   * The text forms below, `containsInsensitive` and `arrayLength` must each return one unit (a call
   * or a parenthesised expression): the renderer puts NOT and comparisons around them as they are.
   */
  castToText(sql: string): string {
    return `CAST(${sql} AS ${this.typeName('text')})`;
  }

  /**
   * A number of any SQL numeric type as the grid shows it, without its locale's grouping: whole
   * numbers without a fraction (`42`, not `42.0`), never an exponent (`100000000000000000`, not
   * `1e+17`), every digit of a DECIMAL and the shortest text that reads back as the same double,
   * no trailing fraction zeros, `0` for negative zero. Every text a formula makes of a number
   * comes from here (TO_TEXT, CONCAT, &, conversions to Text, text joins).
   */
  numberToText(sql: string): string {
    return this.castToText(sql);
  }

  /** A list's elements as text joined by ', ' (nulls skipped), as the grid shows them; no quoting or escapes. */
  arrayToText(sql: string): string {
    return `array_to_string(${sql}, ', ')`;
  }

  /** JSON text of a JSON, struct or map value. */
  jsonToText(sql: string): string {
    return this.castToText(sql);
  }

  /** An interval as the grid shows it: an ISO 8601 duration, each part with its own sign (`P1Y2M3DT4H5M6.5S`, `PT0S`). */
  intervalToText(sql: string): string {
    return this.castToText(sql);
  }

  /** Binary data as the grid shows it: base64. */
  blobToText(sql: string): string {
    return this.castToText(sql);
  }

  /** A time of day with a zone as the grid shows it: `HH:MM:SS[.f]±HH:MM[:SS]`. */
  timeTzToText(sql: string): string {
    return this.castToText(sql);
  }

  /** A value as text of the given shape (values/shown-text.ts chooses a column's): one of the forms above. */
  textOf(sql: string, shape: TextShape): string {
    switch (shape) {
      case 'array':
        return this.arrayToText(sql);
      case 'number':
        return this.numberToText(sql);
      case 'json':
        return this.jsonToText(sql);
      case 'interval':
        return this.intervalToText(sql);
      case 'blob':
        return this.blobToText(sql);
      case 'timetz':
        return this.timeTzToText(sql);
      default:
        return this.castToText(sql);
    }
  }

  containsInsensitive(haystack: string, needle: string): string {
    return `(position(lower(${needle}) in lower(${haystack})) > 0)`;
  }

  arrayLength(sql: string): string {
    return `cardinality(${sql})`;
  }

  distinctFrom(left: string, right: string): string {
    return `${left} IS DISTINCT FROM ${right}`;
  }

  /**
   * `abs(left - right)`, a join tolerance's distance. `double` is the same distance in doubles, for
   * a dialect whose exact subtraction can overflow (it raises an error there).
   */
  absDifference(left: string, right: string, _double: { left: string; right: string }): string {
    return `abs(${left} - ${right})`;
  }

  orderItem(sql: string, order: SortOrder): string {
    return `${sql} ${order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`;
  }

  limitOffset(limit: number | null, offset: number | null): string {
    const parts: string[] = [];
    if (limit !== null) parts.push(`LIMIT ${limit}`);
    if (offset !== null) parts.push(`OFFSET ${offset}`);
    return parts.join(' ');
  }

  /** A conversion that gives null for a value that does not convert (DuckDB, Snowflake, SQL Server spell it so). */
  tryCast(sql: string, type: SqlType): string {
    return `TRY_CAST(${sql} AS ${this.typeName(type)})`;
  }

  /** Truncates a date or timestamp to a grain (for pivots and model columns). */
  truncateDate(sql: string, grain: DateGrain): string {
    if (!DATE_GRAINS.includes(grain)) throw new Error(`Unknown time grain ${String(grain)}`);
    return `date_trunc(${this.literal(grain)}, ${sql})`;
  }

  /**
   * The group of a pivot time grain a date (the grain's first day, a DATE) belongs to, as text
   * that names it and sorts like it: `2024-01-31`, `2024-W05` (ISO week and its year), `2024-01`,
   * `2024-Q1`, `2024`. Standard SQL has no such function: PostgreSQL's `to_char` spelling here.
   */
  dateLabel(sql: string, grain: PivotTimeGrain): string {
    const patterns: Record<PivotTimeGrain, string> = {
      day: 'YYYY-MM-DD',
      week: 'IYYY-"W"IW',
      month: 'YYYY-MM',
      quarter: 'YYYY-"Q"Q',
      year: 'YYYY',
    };
    if (!(grain in patterns)) throw new Error(`Unknown pivot time grain ${String(grain)}`);
    return `to_char(${sql}, ${this.literal(patterns[grain])})`;
  }

  /**
   * A whitelisted function of formulas. The names are those of DuckDB and PostgreSQL; "now" and
   * "today" are in UTC, like the TIMESTAMP columns.
   */
  callFunction(name: SqlFunctionName, args: readonly string[]): string {
    switch (name) {
      case 'current_timestamp':
        return `(CURRENT_TIMESTAMP AT TIME ZONE 'UTC')`;
      case 'current_date':
        return `CAST((CURRENT_TIMESTAMP AT TIME ZONE 'UTC') AS ${this.typeName('date')})`;
      default:
        return `${name}(${args.join(', ')})`;
    }
  }

  /** A field of a date or timestamp as a number. */
  datePart(part: DatePart, sql: string): string {
    return `EXTRACT(${DATE_PART_FIELDS[part]} FROM ${sql})`;
  }

  /** `sql` moved by `amount` grains (a whole number, may be negative); a date comes back as a timestamp. */
  addToDate(sql: string, amount: string, grain: DateGrain): string {
    const [count, unit] = GRAIN_INTERVALS[grain];
    return `(${sql} + ${amount} * INTERVAL '${count}' ${unit})`;
  }

  /** Grain boundaries crossed from start to end (not standard SQL: DuckDB's spelling; others override). */
  dateDiff(grain: DateGrain, start: string, end: string): string {
    if (!DATE_GRAINS.includes(grain)) throw new Error(`Unknown time grain ${String(grain)}`);
    return `date_diff(${this.literal(grain)}, ${start}, ${end})`;
  }
}

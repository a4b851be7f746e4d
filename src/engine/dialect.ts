/**
 * What changes from one SQL database to another, as small methods a dialect overrides (the way
 * Kysely's dialects do). `SqlDialect` is standard SQL with `$n` placeholders; `DuckDbDialect`
 * (dialects/duckdb.ts) is the default. The renderer reaches SQL text only through these methods.
 */
import { ModelError, type ModelErrorLocation } from './errors';
import type { SortOrder, SqlType } from './sql-ast';
import type { SqlValue } from './sql';

export const TIME_GRAINS = ['second', 'minute', 'hour', 'day', 'month', 'quarter', 'year'] as const;
export type TimeGrain = (typeof TIME_GRAINS)[number];

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

  /** SQL name of a bound value's type. */
  typeName(type: SqlType): string {
    const names: Record<SqlType, string> = {
      text: 'VARCHAR',
      bigint: 'BIGINT',
      double: 'DOUBLE PRECISION',
      boolean: 'BOOLEAN',
      date: 'DATE',
      timestamp: 'TIMESTAMP',
    };
    return names[type];
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

  /** A list's elements as text joined by ', ' (nulls skipped), as the grid shows them; no quoting or escapes. */
  arrayToText(sql: string): string {
    return `array_to_string(${sql}, ', ')`;
  }

  /** JSON text of a JSON, struct or map value. */
  jsonToText(sql: string): string {
    return this.castToText(sql);
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

  orderItem(sql: string, order: SortOrder): string {
    return `${sql} ${order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`;
  }

  limitOffset(limit: number | null, offset: number | null): string {
    const parts: string[] = [];
    if (limit !== null) parts.push(`LIMIT ${limit}`);
    if (offset !== null) parts.push(`OFFSET ${offset}`);
    return parts.join(' ');
  }

  /** Truncates a date or timestamp to a grain (for pivots and model columns). */
  truncateDate(sql: string, grain: TimeGrain): string {
    if (!TIME_GRAINS.includes(grain)) throw new Error(`Unknown time grain ${String(grain)}`);
    return `date_trunc(${this.literal(grain)}, ${sql})`;
  }
}

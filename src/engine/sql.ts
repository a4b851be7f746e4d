/**
 * The contract between the engine (which compiles descriptions to SQL) and whatever runs SQL
 * (the server's DuckDB warehouse, or a test double). Nothing here knows about a driver.
 */

/** A value bound to a placeholder. Dates and times travel as ISO text and are cast in the SQL. */
export type SqlValue = string | number | boolean | bigint | null;

/** SQL text with `$1`, `$2`, ... placeholders and their values, in order. */
export interface CompiledQuery {
  sql: string;
  parameters: SqlValue[];
}

/** A result row keyed by column name, values already converted to JSON-safe values. */
export type ResultRow = Record<string, unknown>;

/** The narrow interface the engine needs from a database. */
export interface SqlRunner {
  all(query: CompiledQuery): Promise<ResultRow[]>;
}

/**
 * Quoting for the few SQL texts the warehouse builds itself (CSV import, export, DDL). Values a user
 * typed are always bound parameters; these only wrap names and server-made file paths.
 */
import { duckdbDialect } from '../../engine';

/** The engine dialect's quoting: one function for every identifier that enters SQL. */
export function quoteIdentifier(name: string): string {
  return duckdbDialect.quoteIdentifier(name);
}

/** `"schema"."table"` */
export function quoteQualified(schema: string, table: string): string {
  return `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
}

/**
 * `'text'` with inner single quotes doubled. Only for statements that take no parameters in DuckDB,
 * such as the target of `COPY ... TO`; the text is a path the server chose, never user input.
 */
export function quoteString(text: string): string {
  if (text.includes('\0')) throw new Error('An SQL string cannot contain NUL');
  return `'${text.replaceAll("'", "''")}'`;
}

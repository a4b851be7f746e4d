/**
 * The text of a Text column's values as the grid shows them, which filters compare and pivots group
 * by. For most stored types it is the database's own text, but not for every one: the tables API
 * shows intervals as ISO 8601 durations (`P1DT2H`, where DuckDB writes `1 day 02:00:00`), BLOBs as
 * base64 (DuckDB: `\xFF...`) and times with a zone with their full offset (`+05:00`, DuckDB: `+05`).
 * A filter on the text a user sees must find it, so those types have a text shape of their own.
 */
import type { Expr, TextShape } from '../sql-ast';

const SHAPES: Readonly<Record<string, TextShape>> = {
  INTERVAL: 'interval',
  BLOB: 'blob',
  'TIME WITH TIME ZONE': 'timetz',
  TIMETZ: 'timetz',
};

/** The shape of a scalar column's shown text, by its SQL type as the warehouse describes it. */
export function scalarTextShape(sqlType: string | undefined): TextShape {
  return SHAPES[sqlType?.trim().toUpperCase() ?? ''] ?? 'scalar';
}

/** A Text column's value as the text the grid shows. */
export function shownText(expr: Expr, sqlType: string | undefined): Expr {
  return { kind: 'text-of', expr, shape: scalarTextShape(sqlType) };
}

/**
 * A text a user compares with a Text column's shown text, in that text's spelling: a UUID is shown
 * in lower case (DuckDB's and PostgreSQL's text), and a source such as PostgreSQL reads one in any
 * case, so `A0EEBC99-…` typed or pasted in upper case finds the row (and orders as its bytes do).
 */
export function shownOperandText(text: string, sqlType: string | undefined): string {
  return sqlType?.trim().toUpperCase() === 'UUID' ? text.toLowerCase() : text;
}

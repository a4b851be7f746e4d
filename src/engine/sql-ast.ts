/**
 * The SQL-level tree the compiler renders: one node kind per construct, plain data like the IR.
 * Builders (filters, sorting, paging) produce these nodes; only `render.ts` turns them into text,
 * so quoting and parameter numbering live in one place.
 */
import type { SqlValue } from './sql';

/** The SQL type a bound value is cast to, so the database never has to guess it. */
export type SqlType = 'text' | 'bigint' | 'double' | 'boolean' | 'date' | 'timestamp';

export type TextShape = 'scalar' | 'array' | 'json';

export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type Expr =
  /** A column of the statement's relation, by its stored name. */
  | { kind: 'column'; name: string }
  /** A value from the request: always a bound parameter. */
  | { kind: 'param'; value: SqlValue; type: SqlType }
  /** A value chosen by the engine itself (e.g. `''` for Empty), rendered as a literal. */
  | { kind: 'constant'; value: string | number }
  /** The text a user reads in the cell: a scalar's text, a list's elements joined, JSON text. */
  | { kind: 'text-of'; expr: Expr; shape: TextShape }
  | { kind: 'array-length'; expr: Expr }
  /** Case-insensitive substring test. */
  | { kind: 'contains'; haystack: Expr; needle: Expr }
  | { kind: 'compare'; op: CompareOp; left: Expr; right: Expr }
  /** Null-safe inequality: true when exactly one side is null, unlike `<>`. */
  | { kind: 'distinct-from'; left: Expr; right: Expr }
  | { kind: 'between'; expr: Expr; low: Expr; high: Expr }
  | { kind: 'is-null'; expr: Expr; negated: boolean }
  | { kind: 'not'; expr: Expr }
  | { kind: 'and'; items: readonly Expr[] }
  | { kind: 'or'; items: readonly Expr[] }
  | { kind: 'in-select'; expr: Expr; select: SelectStatement }
  | { kind: 'count-star' };

export type SortOrder = 'asc' | 'desc';

/** Nulls always sort last, whatever the direction. */
export interface OrderItem {
  expr: Expr;
  order: SortOrder;
}

export interface SelectItem {
  expr: Expr;
  alias: string | null;
}

export interface SelectStatement {
  kind: 'select';
  items: readonly SelectItem[];
  from: { schema: string; name: string };
  where: Expr | null;
  orderBy: readonly OrderItem[];
  /** Integers checked by the compiler; rendered inline so the planner sees constants. */
  limit: number | null;
  offset: number | null;
}

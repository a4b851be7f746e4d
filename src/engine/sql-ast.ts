/**
 * The SQL-level tree the compiler renders: one node kind per construct, plain data like the IR.
 * Builders (filters, sorting, paging) produce these nodes; only `render.ts` turns them into text,
 * so quoting and parameter numbering live in one place.
 */
import type { PivotTimeGrain } from '../shared/pivots';
import type { DateGrain } from './dialect';
import type { SqlValue } from './sql';

/** The SQL type a bound value is cast to, so the database never has to guess it. */
export type SqlType =
  'text' | 'integer' | 'bigint' | 'double' | 'boolean' | 'date' | 'timestamp' | 'timestamp_ns' | ExactNumericSqlType;

/**
 * The other numeric types a filter value may be bound as, to compare in a column's own type
 * (values/numeric-types.ts): DuckDB's integers, `decimal(precision,scale)` and `float` (REAL).
 */
export type ExactNumericSqlType =
  | 'float'
  | 'tinyint'
  | 'smallint'
  | 'hugeint'
  | 'utinyint'
  | 'usmallint'
  | 'uinteger'
  | 'ubigint'
  | 'uhugeint'
  | 'bignum'
  | `decimal(${number},${number})`;

/**
 * How a value reads as text: a scalar's own text, a number as the grid shows it (`number`: no
 * exponent, no `.0`, every digit), a list's elements joined, JSON text.
 */
/** How a value becomes text; `interval`, `blob` and `timetz` are scalars the grid shows otherwise than SQL's cast (values/shown-text.ts). */
export type TextShape = 'scalar' | 'number' | 'array' | 'json' | 'interval' | 'blob' | 'timetz';

export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** Arithmetic of formulas; the formula compiler makes `/` real division and guards zero divisors. */
export type ArithmeticOp = '+' | '-' | '*' | '/' | '%';

/**
 * The SQL functions formulas may call, a closed list so no node carries a function name from a
 * user; `dialect.callFunction` spells each one.
 */
export type SqlFunctionName =
  | 'upper'
  | 'lower'
  | 'trim'
  | 'length'
  | 'left'
  | 'right'
  | 'substring'
  | 'replace'
  | 'starts_with'
  | 'ends_with'
  | 'split_part'
  | 'concat'
  | 'round'
  | 'floor'
  | 'ceil'
  | 'abs'
  | 'power'
  | 'sqrt'
  | 'least'
  | 'greatest'
  | 'coalesce'
  | 'current_date'
  | 'current_timestamp';

/** Fields `dialect.datePart` extracts; `isodow` is the weekday, Monday 1 to Sunday 7. */
export type DatePart = 'year' | 'quarter' | 'month' | 'day' | 'isodow' | 'hour';

export type Expr =
  /**
   * A column of the statement's relation, by its stored name; `table` qualifies it with an
   * engine-made alias of the FROM clause (`"s1"."amount"`), never with user text.
   */
  | { kind: 'column'; name: string; table?: string }
  /** A value from the request: always a bound parameter. */
  | { kind: 'param'; value: SqlValue; type: SqlType }
  /** A value chosen by the engine itself (e.g. `''` for Empty, FALSE for a filter nothing can match), rendered as a literal. */
  | { kind: 'constant'; value: string | number | boolean }
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
  | { kind: 'count-star' }
  /** A conversion where a value that does not convert becomes null instead of an error (TRY_CAST). */
  | { kind: 'try-cast'; expr: Expr; type: SqlType }
  /** A date or timestamp truncated to a grain, through `dialect.truncateDate`. */
  | { kind: 'date-trunc'; expr: Expr; grain: DateGrain }
  /** A date's group of a pivot time grain named as text (`2024-01`, `2024-W05`, `2024-Q1`), through `dialect.dateLabel`. */
  | { kind: 'date-label'; expr: Expr; grain: PivotTimeGrain }
  /** `abs(left - right)`, the distance a join tolerance is compared with. */
  | { kind: 'abs-difference'; left: Expr; right: Expr }
  /** Formula nodes (formula/): arithmetic and negation, always rendered in parentheses. */
  | { kind: 'arithmetic'; op: ArithmeticOp; left: Expr; right: Expr }
  | { kind: 'negate'; expr: Expr }
  | { kind: 'func'; name: SqlFunctionName; args: readonly Expr[] }
  /** `CASE WHEN .. THEN .. [ELSE ..] END`; no ELSE gives null. */
  | { kind: 'case'; whens: readonly { when: Expr; then: Expr }[]; else: Expr | null }
  | { kind: 'cast'; expr: Expr; type: SqlType }
  /** `NULLIF(expr, value)`: null where expr equals value (a zero divisor). */
  | { kind: 'nullif'; expr: Expr; value: Expr }
  | { kind: 'date-part'; part: DatePart; expr: Expr }
  /** A date or timestamp moved by `amount` (a whole number) of `grain`s. */
  | { kind: 'date-add'; expr: Expr; amount: Expr; grain: DateGrain }
  /** Grain boundaries crossed from `start` to `end`, as a whole number. */
  | { kind: 'date-diff'; grain: DateGrain; start: Expr; end: Expr }
  /**
   * Pivot nodes (pivot/): an aggregate, `func([DISTINCT] arg) [FILTER (WHERE ..)] [OVER (PARTITION BY ..)]`
   * (`arg` null is `count(*)`); with `over` it is a window over the grouped rows.
   */
  | {
      kind: 'aggregate';
      func: AggregateFunction;
      arg: Expr | null;
      distinct: boolean;
      filter: Expr | null;
      over: { partitionBy: readonly Expr[] } | null;
    }
  /** `GROUPING(a, b, ..)`: a bit per argument, set where the row is a total over that argument. */
  | { kind: 'grouping'; args: readonly Expr[] }
  /** `row_number() OVER (ORDER BY ..)`: a row's place in a total order (ordered-copy.ts numbers copies with it). */
  | { kind: 'row-number'; orderBy: readonly OrderItem[] };

/** Aggregates pivots use, a closed list like `SqlFunctionName`. */
export type AggregateFunction = 'count' | 'sum' | 'min' | 'max' | 'avg';

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

/** A stored table or view; `alias` (engine-made, e.g. `s1`) when columns are qualified with it. */
export interface TableSource {
  kind: 'table';
  schema: string;
  name: string;
  alias?: string;
}

/** A nested SELECT read as a relation, e.g. a draft model paged like a table. */
export interface SubquerySource {
  kind: 'subquery';
  select: SelectStatement;
  alias: string;
}

export type FromSource = TableSource | SubquerySource;

export type JoinType = 'inner' | 'left' | 'right' | 'full';

/** `<type> JOIN source ON condition`, applied in order after the FROM source (a left-deep tree). */
export interface JoinClause {
  type: JoinType;
  source: FromSource;
  on: Expr;
}

export interface SelectStatement {
  kind: 'select';
  items: readonly SelectItem[];
  from: FromSource;
  /** Absent or empty: no joins. */
  joins?: readonly JoinClause[];
  where: Expr | null;
  /**
   * Absent or null: no GROUP BY. One set is a plain `GROUP BY a, b` (`GROUP BY ()` for an empty set:
   * one row over everything, even over no rows); several are `GROUP BY GROUPING SETS ((a, b), (a), ())`.
   */
  groupBy?: { sets: readonly (readonly Expr[])[] } | null;
  orderBy: readonly OrderItem[];
  /** Integers checked by the compiler; rendered inline so the planner sees constants. */
  limit: number | null;
  offset: number | null;
}

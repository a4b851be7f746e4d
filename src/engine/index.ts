/** The engine's public surface; the server imports from here (and `sql.ts` for the runner contract). */
export type { CompiledQuery, ResultRow, SqlRunner, SqlValue } from './sql';
export { ModelError, isModelError, type ModelErrorCode, type ModelErrorLocation } from './errors';
export type {
  FilterGroupSpec,
  FilterSpec,
  FilterValue,
  PageSpec,
  Relation,
  RelationColumn,
  SortSpec,
  TableQuery,
  TableRelation,
} from './ir';
export { SqlDialect, TIME_GRAINS, checkIdentifier, type DialectCapabilities, type TimeGrain } from './dialect';
export { DuckDbDialect, duckdbDialect } from './dialects/duckdb';
export {
  COUNT_COLUMN,
  buildCountStatement,
  buildPageStatement,
  compileCountQuery,
  compilePageQuery,
  type CompileOptions,
} from './table-query';
export { renderSelect } from './render';
export { renderForDisplay } from './display';
export type { Expr, OrderItem, SelectItem, SelectStatement, SqlType } from './sql-ast';

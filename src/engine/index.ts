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
  SelectRelation,
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
  compileKeyBoundPage,
  compilePageQuery,
  KEY_BOUND_SLACK,
  type CompileOptions,
} from './table-query';
export {
  COPY_POSITION,
  compileCopyPage,
  compileOrderedCopy,
  pagePositions,
  type CopyLocation,
  type OrderedCopy,
  type OrderedCopyShape,
} from './ordered-copy';
export { renderSelect } from './render';
export { renderForDisplay } from './display';
export type { Expr, OrderItem, SelectItem, SelectStatement, SqlType } from './sql-ast';
export {
  FORMULA_FUNCTION_TABLE,
  MAX_FORMULA_LENGTH,
  compileFormula,
  formulaNamesToKeys,
  parseFormula,
  referencedColumnKeys,
  type CompiledFormula,
  type FormulaAst,
  type FormulaScope,
  type FormulaType,
  type KeyedFormula,
} from './formula';
export { DATE_GRAINS, type DateGrain } from './dialect';
export { DEFAULT_SUBQUERY_ALIAS, relationSource } from './relation-source';
export {
  JOIN_OPERATORS,
  JOIN_TYPES,
  PIVOT_SECTIONS,
  REMOVED_COLUMN_TEXT,
  compileModelSelect,
  compileModelView,
  modelRelation,
  removedColumnMessage,
  validateModel,
  compileModelPageInBaseOrder,
  displayAliases,
  renameItems,
  type ColumnIssue,
  type CompiledModel,
  type FilterIssue,
  type JoinConditionSpec,
  type JoinIssue,
  type JoinOperator,
  type JoinSpec,
  type JoinValue,
  type ModelColumnSpec,
  type ModelCompileOptions,
  type ModelErrors,
  type ModelIssue,
  type ModelJoinType,
  type ModelOutputColumn,
  type ModelSourceSpec,
  type ModelSpec,
  type PivotIssue,
  type PivotRefs,
  type PivotSection,
  type SortIssue,
  type SourceRef,
} from './model';
export {
  PIVOT_MAX_COLUMN_KEYS,
  compilePivotColumnKeys,
  compilePivotQuery,
  readPivotColumnKeys,
  shapePivotRows,
  type PivotFieldSpec,
  type PivotFilterSpec,
  type PivotKeysInput,
  type PivotQueryInput,
  type PivotSortSpec,
  type PivotSource,
  type PivotSpec,
  type PivotValueSpec,
  type ReadColumnKeysInput,
} from './pivot';

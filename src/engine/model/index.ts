/**
 * Models: sources joined into one SELECT with raw and function columns, filters and a default
 * sort (`compileModelSelect`, `compileModelView`), and the consistency check of their references
 * (`validateModel`). See the "Models" section of src/engine/README.md.
 */
export { compileModelSelect, compileModelView, modelRelation, type ModelCompileOptions } from './compile';
export { compileModelPageInBaseOrder } from './base-order';
export { displayAliases, renameItems } from './display-aliases';
export {
  JOIN_OPERATORS,
  JOIN_TYPES,
  type CompiledModel,
  type JoinConditionSpec,
  type JoinOperator,
  type JoinSpec,
  type JoinValue,
  type ModelColumnSpec,
  type ModelJoinType,
  type ModelOutputColumn,
  type ModelSourceSpec,
  type ModelSpec,
  type SourceRef,
} from './ir';
export { REMOVED_COLUMN_TEXT, removedColumnMessage } from './messages';
export {
  PIVOT_SECTIONS,
  validateModel,
  type ColumnIssue,
  type FilterIssue,
  type JoinIssue,
  type ModelErrors,
  type ModelIssue,
  type PivotIssue,
  type PivotRefs,
  type PivotSection,
  type SortIssue,
} from './validate';

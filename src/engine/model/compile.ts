/**
 * A model to one SELECT: its columns in order, FROM the base table with its joins, WHERE its
 * filter groups (by model column keys, on the columns' expressions). The model's sort is returned
 * apart, as the default order a page query applies when the grid asks for none.
 */
import { ColumnScope } from '../columns';
import type { SqlDialect } from '../dialect';
import { duckdbDialect } from '../dialects/duckdb';
import { ModelError } from '../errors';
import { compileFilterGroups } from '../filters/compile-groups';
import type { SelectRelation, SortSpec } from '../ir';
import { renderSelect } from '../render';
import type { Expr, SelectStatement, TableSource } from '../sql-ast';
import type { CompiledQuery } from '../sql';
import type { CompiledModel, ModelOutputColumn, ModelSourceSpec, ModelSpec } from './ir';
import { displayAliases } from './display-aliases';
import { compileJoinCondition } from './join-conditions';
import { buildJoinTree, type PlacedSource } from './join-tree';
import { removedColumnMessage } from './messages';
import { compileModelColumns, orderedColumns } from './model-columns';
import { SourceIndex } from './sources';

export interface ModelCompileOptions {
  /** Defaults to DuckDB. */
  dialect?: SqlDialect;
  /**
   * How the columns are named in the SELECT: by key (default: what views, pages and exports read)
   * or by display name, unique ("Show SQL", display-aliases.ts). The rows are the same.
   */
  columnAliases?: 'keys' | 'displayNames';
}

const tableSource = ({ source, alias }: PlacedSource): TableSource => ({
  kind: 'table',
  schema: source.relation.schema,
  name: source.relation.name,
  alias,
});

/** The left table of the first join; without joins, the source of the first raw column. */
function baseSource(spec: ModelSpec, sources: SourceIndex): ModelSourceSpec {
  const first = spec.joins[0];
  if (first) {
    const source = sources.source(first.leftTable);
    if (!source) {
      throw new ModelError(`The table ${first.leftTable.sourceId} is no longer available`, 'unknown_source', [
        'joins',
        0,
        'leftTable',
      ]);
    }
    return source;
  }
  for (const { spec: column, index } of orderedColumns(spec.columns)) {
    if (!column.sourceColumn || (typeof column.function === 'string' && column.function.trim() !== '')) continue;
    const source = sources.source(column.sourceColumn);
    if (!source) {
      throw new ModelError(removedColumnMessage([column.sourceColumn.columnKey]), 'column_removed', [
        'columns',
        index,
        'sourceColumn',
        'columnKey',
      ]);
    }
    return source;
  }
  throw new ModelError('The model has no data yet. Add a raw data column.', 'empty_model', ['columns']);
}

/** Filters and sort may name only model columns; a key that is gone is the spec's removed-column problem. */
function checkReferences(spec: ModelSpec, keys: ReadonlySet<string>): void {
  spec.filterGroups.forEach((group, groupIndex) =>
    group.filters.forEach((filter, filterIndex) => {
      if (!keys.has(filter.columnKey)) {
        throw new ModelError(removedColumnMessage([filter.columnKey]), 'column_removed', [
          'filterGroups',
          groupIndex,
          'filters',
          filterIndex,
          'columnKey',
        ]);
      }
    }),
  );
  spec.sort.forEach((sort, index) => {
    if (!keys.has(sort.columnKey)) {
      throw new ModelError(removedColumnMessage([sort.columnKey]), 'column_removed', ['sort', index, 'columnKey']);
    }
    if (sort.direction !== undefined && sort.direction !== 'Ascending' && sort.direction !== 'Descending') {
      throw new ModelError(
        `Sort on "${sort.columnKey}": unknown direction "${String(sort.direction)}"`,
        'invalid_sorting',
        ['sort', index, 'direction'],
      );
    }
  });
}

export function compileModelSelect(spec: ModelSpec, options: ModelCompileOptions = {}): CompiledModel {
  if (spec.columns.length === 0) {
    throw new ModelError('The model has no columns yet. Add a column.', 'empty_model', ['columns']);
  }
  const sources = new SourceIndex(spec.sources);
  const tree = buildJoinTree(spec.joins, baseSource(spec, sources), sources);
  const columns = compileModelColumns(spec.columns, tree, sources);
  const output = columns.map((column): ModelOutputColumn => ({
    columnKey: column.spec.columnKey,
    type: column.type,
    displayName: column.spec.displayName,
    ...(column.sqlType === undefined ? {} : { sqlType: column.sqlType }),
  }));
  checkReferences(spec, new Set(output.map((column) => column.columnKey)));

  const scope = new ColumnScope(
    { columns: output, rowKey: null },
    new Map<string, Expr>(columns.map((column) => [column.spec.columnKey, column.expr])),
  );
  const aliases =
    options.columnAliases === 'displayNames' ? displayAliases(output) : output.map((column) => column.columnKey);
  const statement: SelectStatement = {
    kind: 'select',
    items: columns.map((column, i) => ({ expr: column.expr, alias: aliases[i]! })),
    from: tableSource(tree.base),
    joins: tree.joins.map((join) => ({
      type: join.type,
      source: tableSource(join.joined),
      on: compileJoinCondition(join, sources),
    })),
    where: compileFilterGroups(spec.filterGroups, scope),
    orderBy: [],
    limit: null,
    offset: null,
  };
  const defaultSorting: SortSpec[] = spec.sort.map((sort) => ({
    columnKey: sort.columnKey,
    direction: sort.direction ?? 'Ascending',
  }));
  return { statement, columns: output, defaultSorting };
}

/**
 * The model's SELECT as text and parameters, e.g. for `CREATE VIEW model.v_<id> AS <sql>` with the
 * parameters inlined by `renderForDisplay` (the dialect's literals, so the view holds no placeholders).
 */
export function compileModelView(spec: ModelSpec, options: ModelCompileOptions = {}): CompiledQuery {
  const dialect = options.dialect ?? duckdbDialect;
  return renderSelect(compileModelSelect(spec, options).statement, dialect);
}

/** The compiled model as a relation a table query pages, filters and sorts like a table. */
export function modelRelation(model: CompiledModel, alias?: string): SelectRelation {
  return alias === undefined
    ? { kind: 'select', statement: model.statement }
    : { kind: 'select', statement: model.statement, alias };
}

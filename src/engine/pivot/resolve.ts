/**
 * Checks a pivot against the relation's columns and resolves its fields: every column known and
 * pivotable (not Json or Array), each aggregation applicable to its column's type, percentages only
 * of numbers, sorts by value naming an existing value field. Problems are ModelErrors located at the
 * pivot's own paths (`['values', 2, 'function']`). Filters compile with the table filter compiler.
 */
import {
  AGGREGATIONS_BY_TYPE,
  AGGREGATION_LABELS,
  PIVOT_AGGREGATIONS,
  PIVOT_SHOW_AS,
  PIVOT_TIME_GRAINS,
  PIVOT_TIME_GRAIN_LABELS,
  SHOW_AS_LABELS,
  isPivotableType,
  pivotFieldLabel,
  pivotValueLabel,
  takesTimeGrain,
  type PivotAggregation,
  type PivotShowAs,
  type PivotTimeGrain,
} from '../../shared/pivots';
import { ColumnScope, columnLabel } from '../columns';
import { ModelError, isModelError, type ModelErrorLocation } from '../errors';
import { compileFilter } from '../filters/compile-filter';
import type { RelationColumn } from '../ir';
import { relationSource } from '../relation-source';
import type { Expr, FromSource, SortOrder } from '../sql-ast';
import type { PivotFieldSpec, PivotSource, PivotValueSpec } from './ir';

export interface ResolvedField {
  column: RelationColumn;
  /** The time grain a Date or DateTime field groups by; null groups by the exact value. */
  grain: PivotTimeGrain | null;
  label: string;
  order: SortOrder;
  /** Sort the field's keys by this value field's aggregate; null sorts by the key. */
  valueIndex: number | null;
}

export interface ResolvedValue {
  column: RelationColumn;
  func: PivotAggregation;
  showAs: PivotShowAs;
  label: string;
}

export interface ResolvedPivot {
  from: FromSource;
  where: Expr | null;
  rows: ResolvedField[];
  columns: ResolvedField[];
  values: ResolvedValue[];
  showRowTotals: boolean;
  showColumnTotals: boolean;
}

type Section = 'rows' | 'columns' | 'values';
const SECTION_NAMES: Record<Section, string> = { rows: 'Rows', columns: 'Columns', values: 'Values' };

/** "an Array", "a Json": the column type as a noun in messages. */
const withArticle = (type: string): string => `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type}`;

export function resolvePivot(source: PivotSource): ResolvedPivot {
  const { pivot } = source;
  const scope = new ColumnScope({ columns: source.columns, rowKey: null });
  const values = pivot.values.map((value, index) => resolveValue(value, scope, index));
  const field = (section: 'rows' | 'columns') => (spec: PivotFieldSpec, index: number) =>
    resolveField(spec, scope, section, index, values.length);
  return {
    from: relationSource(source.relation),
    where: compilePivotFilters(pivot.filters ?? [], scope),
    rows: pivot.rows.map(field('rows')),
    columns: pivot.columns.map(field('columns')),
    values,
    showRowTotals: pivot.showRowTotals,
    showColumnTotals: pivot.showColumnTotals,
  };
}

/** A known column that a pivot can group or aggregate. */
function pivotColumn(key: string, scope: ColumnScope, section: Section, location: ModelErrorLocation): RelationColumn {
  const column = scope.resolve(key, location);
  if (!isPivotableType(column.type)) {
    throw new ModelError(
      `${SECTION_NAMES[section]}: "${columnLabel(column)}" is ${withArticle(column.type)} column, which a pivot cannot group or aggregate`,
      'field_not_pivotable',
      location,
    );
  }
  return column;
}

function resolveField(
  spec: PivotFieldSpec,
  scope: ColumnScope,
  section: 'rows' | 'columns',
  index: number,
  valueCount: number,
): ResolvedField {
  const column = pivotColumn(spec.column, scope, section, [section, index, 'column']);
  const grain = resolveGrain(spec, column, section, index);
  const label = pivotFieldLabel(columnLabel(column), grain);
  const direction = spec.sort?.direction ?? 'Ascending';
  if (direction !== 'Ascending' && direction !== 'Descending') {
    throw new ModelError(
      `${SECTION_NAMES[section]}: unknown sort direction "${String(direction)}"`,
      'invalid_sorting',
      [section, index, 'sort', 'direction'],
    );
  }
  const valueIndex = spec.sort?.valueIndex ?? null;
  if (valueIndex !== null && !(Number.isSafeInteger(valueIndex) && valueIndex >= 0 && valueIndex < valueCount)) {
    const has = valueCount === 0 ? 'no values' : `values 1 to ${valueCount}`;
    throw new ModelError(
      `${SECTION_NAMES[section]}: "${label}" is sorted by a value field that does not exist (the pivot has ${has})`,
      'invalid_sorting',
      [section, index, 'sort', 'valueIndex'],
    );
  }
  return { column, grain, label, order: direction === 'Descending' ? 'desc' : 'asc', valueIndex };
}

/** A known grain, on a Date or DateTime column only. */
function resolveGrain(
  spec: PivotFieldSpec,
  column: RelationColumn,
  section: 'rows' | 'columns',
  index: number,
): PivotTimeGrain | null {
  const grain = spec.grain ?? null;
  if (grain === null) return null;
  const location = [section, index, 'grain'];
  if (!PIVOT_TIME_GRAINS.includes(grain)) {
    throw new ModelError(`${SECTION_NAMES[section]}: unknown time grain "${String(grain)}"`, 'invalid_pivot', location);
  }
  if (!takesTimeGrain(column.type)) {
    throw new ModelError(
      `${SECTION_NAMES[section]}: "${columnLabel(column)}" is ${withArticle(column.type)} column; only Date and DateTime fields group by ${PIVOT_TIME_GRAIN_LABELS[grain].toLowerCase()}`,
      'grain_not_applicable',
      location,
    );
  }
  return grain;
}

function resolveValue(spec: PivotValueSpec, scope: ColumnScope, index: number): ResolvedValue {
  const location = ['values', index];
  const column = pivotColumn(spec.column, scope, 'values', [...location, 'column']);
  const func = spec.function ?? 'Sum';
  const showAs = spec.showAs ?? 'Default';
  if (!PIVOT_AGGREGATIONS.includes(func)) {
    throw new ModelError(`Values: unknown aggregation "${String(func)}"`, 'invalid_pivot', [...location, 'function']);
  }
  if (!PIVOT_SHOW_AS.includes(showAs)) {
    throw new ModelError(`Values: unknown "show as" option "${String(showAs)}"`, 'invalid_pivot', [
      ...location,
      'showAs',
    ]);
  }
  const label = columnLabel(column);
  const applicable = AGGREGATIONS_BY_TYPE[column.type];
  if (!applicable.includes(func)) {
    const options = applicable.map((option) => AGGREGATION_LABELS[option]).join(', ');
    throw new ModelError(
      `Values: ${AGGREGATION_LABELS[func]} does not apply to "${label}", ${withArticle(column.type)} column (use ${options})`,
      'aggregation_not_applicable',
      [...location, 'function'],
    );
  }
  const numeric = func === 'Count' || func === 'CountUnique' || column.type === 'Number';
  if (showAs !== 'Default' && !numeric) {
    throw new ModelError(
      `Values: ${SHOW_AS_LABELS[showAs]} needs a number, but ${AGGREGATION_LABELS[func]} of "${label}" is ${withArticle(column.type)}`,
      'show_as_not_applicable',
      [...location, 'showAs'],
    );
  }
  return {
    column,
    func,
    showAs,
    label: pivotValueLabel({ function: func, showAs, displayName: spec.displayName ?? null }, label),
  };
}

/** All filters must hold. The table filter compiler speaks of `columnKey`; pivot filters name `column`. */
function compilePivotFilters(filters: NonNullable<PivotSource['pivot']['filters']>, scope: ColumnScope): Expr | null {
  const conditions = filters.map((filter, index) => {
    try {
      return compileFilter({ ...filter, columnKey: filter.column }, scope, ['filters', index]);
    } catch (error) {
      if (!isModelError(error)) throw error;
      const location = error.location.map((part) => (part === 'columnKey' ? 'column' : part));
      throw new ModelError(error.message, error.code, location);
    }
  });
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? conditions[0]! : { kind: 'and', items: conditions };
}

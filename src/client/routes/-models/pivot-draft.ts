/**
 * Edits of a pivot as plain functions: the editor and the toolbar change a copy and save the whole
 * pivots array. Value moves and removals keep the row/column sorts pointing at the same value.
 */
import { COLUMN_REMOVED_MESSAGE, type Model, type ModelColumn } from '../../../shared/models';
import {
  AGGREGATIONS_BY_TYPE,
  isPivotableType,
  takesTimeGrain,
  type Pivot,
  type PivotField,
  type PivotFilter,
  type PivotValue,
} from '../../../shared/pivots';
import { OPERATORS_BY_TYPE, TWO_VALUE_OPERATORS, VALUELESS_OPERATORS } from '../../../shared/tables';

export type PivotSection = 'rows' | 'columns' | 'values' | 'filters';

export const DELETE_PIVOT_PROMPT = 'Are you sure you want to delete this pivot?';

/** Nothing chosen at all: no data to show, nothing to export (spec §5). */
export function isEmptyPivot(pivot: Pick<Pivot, 'rows' | 'columns' | 'values'>): boolean {
  return pivot.rows.length + pivot.columns.length + pivot.values.length === 0;
}

/** The model columns a pivot field may use: Json and Array columns cannot be chosen (spec §5). */
export function pivotableColumns(model: Model): ModelColumn[] {
  return model.columns.filter((column) => isPivotableType(column.type));
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}

/** Every row and column field's sort, with its value index mapped (null: back to ordering by key). */
function remapSorts(pivot: Pivot, map: (valueIndex: number) => number | null): Pivot {
  const field = (f: PivotField): PivotField =>
    f.sort.valueIndex === null ? f : { ...f, sort: { ...f.sort, valueIndex: map(f.sort.valueIndex) } };
  return { ...pivot, rows: pivot.rows.map(field), columns: pivot.columns.map(field) };
}

export function removeValue(pivot: Pivot, index: number): Pivot {
  const next = remapSorts(pivot, (i) => (i === index ? null : i > index ? i - 1 : i));
  return { ...next, values: pivot.values.filter((_, i) => i !== index) };
}

export function moveValue(pivot: Pivot, from: number, to: number): Pivot {
  const order = moveItem(
    pivot.values.map((_, i) => i),
    from,
    to,
  );
  const next = remapSorts(pivot, (i) => order.indexOf(i));
  return { ...next, values: order.map((i) => pivot.values[i]!) };
}

/** A row or column field of the column; a Date or DateTime groups by month at first, as most readers want. */
export function newField(column: Pick<ModelColumn, 'columnKey' | 'type'>): PivotField {
  return {
    column: column.columnKey,
    sort: { direction: 'Ascending', valueIndex: null },
    grain: takesTimeGrain(column.type) ? 'month' : null,
  };
}

/** The field re-pointed at another column: the grain kept for a date, chosen anew from a non-date. */
export function withFieldColumn(field: PivotField, column: Pick<ModelColumn, 'columnKey' | 'type'>): PivotField {
  if (!takesTimeGrain(column.type)) return { ...field, column: column.columnKey, grain: null };
  return { ...field, column: column.columnKey, grain: field.grain ?? 'month' };
}

/** A value of the column with Sum when it applies (the spec's default), else the first that does. */
export function newValue(column: ModelColumn): PivotValue {
  const allowed = AGGREGATIONS_BY_TYPE[column.type];
  return {
    column: column.columnKey,
    function: allowed.includes('Sum') ? 'Sum' : (allowed[0] ?? 'Count'),
    showAs: 'Default',
    displayName: null,
  };
}

/** The value re-pointed at another column, its aggregation kept when the new type allows it. */
export function withValueColumn(value: PivotValue, column: ModelColumn): PivotValue {
  const allowed = AGGREGATIONS_BY_TYPE[column.type];
  return allowed.includes(value.function)
    ? { ...value, column: column.columnKey }
    : { ...newValue(column), ...pick(value) };
}

function pick(value: PivotValue): Pick<PivotValue, 'showAs' | 'displayName'> {
  return { showAs: value.showAs, displayName: value.displayName };
}

export function newFilter(column: ModelColumn): PivotFilter {
  return {
    column: column.columnKey,
    operator: OPERATORS_BY_TYPE[column.type][0] ?? 'Equals',
    value: null,
    value2: null,
  };
}

function isBlank(value: PivotFilter['value']): boolean {
  return value === undefined || value === null || value === '';
}

/** Whether the filter lacks a value its operator needs ('Please enter a value'). */
export function filterMissesValue(filter: PivotFilter): boolean {
  if (VALUELESS_OPERATORS.includes(filter.operator)) return false;
  return isBlank(filter.value) || (TWO_VALUE_OPERATORS.includes(filter.operator) && isBlank(filter.value2));
}

/** What is saved: sorts only point at existing values, blank display names are none. */
export function normalizePivot(pivot: Pivot): Pivot {
  const count = pivot.values.length;
  const next = remapSorts(pivot, (i) => (i < count ? i : null));
  return {
    ...next,
    values: pivot.values.map((v) => ({ ...v, displayName: v.displayName?.trim() ? v.displayName.trim() : null })),
    filters: pivot.filters.map((f) =>
      VALUELESS_OPERATORS.includes(f.operator)
        ? { ...f, value: null, value2: null }
        : TWO_VALUE_OPERATORS.includes(f.operator)
          ? f
          : { ...f, value2: null },
    ),
  };
}

/** The model's pivots with this one replaced (or removed when `next` is null). */
export function replacePivot(pivots: readonly Pivot[], key: string, next: Pivot | null): Pivot[] {
  return next ? pivots.map((p) => (p.key === key ? next : p)) : pivots.filter((p) => p.key !== key);
}

export const problemKey = (section: PivotSection, index: number) => `${section}:${index}`;

/** The pivot's validation problems (spec §5: a removed column) by `${section}:${index}`. */
export function pivotProblems(model: Model, pivotKey: string): Map<string, string> {
  const problems = new Map<string, string>();
  for (const problem of model.errors.pivots) {
    if (problem.pivotKey !== pivotKey || problem.section === undefined || problem.index === undefined) continue;
    problems.set(problemKey(problem.section as PivotSection, problem.index), problem.message);
  }
  return problems;
}

export const NOT_PIVOTABLE_MESSAGE = 'Json and Array columns cannot be pivot fields. Please select another column.';

/**
 * What is wrong with a field of the draft: its column was removed from the model (the server's
 * message for that key when it sent one), or it cannot be a pivot field. Read from the draft, so
 * the marks follow the fields as they move and go away once another column is chosen.
 */
export function fieldProblem(model: Model, columnKey: string, saved: ReadonlyMap<string, string>): string | undefined {
  const column = model.columns.find((c) => c.columnKey === columnKey);
  if (column) return isPivotableType(column.type) ? undefined : NOT_PIVOTABLE_MESSAGE;
  const known = [...saved.values()].find((message) => message.includes(`(${columnKey})`));
  return known ?? `${COLUMN_REMOVED_MESSAGE} (${columnKey})`;
}

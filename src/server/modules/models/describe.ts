import {
  compileModelSelect,
  displayAliases,
  formulaNamesToKeys,
  isModelError,
  referencedColumnKeys,
  renderForDisplay,
  renderSelect,
  renameItems,
  validateModel,
  type CompiledModel,
  type KeyedFormula,
  type ModelSpec,
} from '../../../engine';
import type { ModelColumn, ModelDefinition, ModelErrors, ValidateFunctionResult } from '../../../shared/models';
import type { LoadedSource } from './sources';

/** A version's definition with what follows from it: types, problems, the SQL its rows come from. */
export interface DescribedDefinition {
  columns: ModelColumn[];
  errors: ModelErrors;
  /** Null when the model cannot be compiled (no columns yet, a broken formula, a missing source). */
  compiled: CompiledModel | null;
  /** Why it cannot be compiled, in words for the user. */
  problem: string | null;
  /** The SELECT of the published view: columns named by key, as pages, exports and other models read them. */
  viewSql: string;
  /** The same SELECT with columns named by display name (unique), for people ("Show SQL"). */
  shownSql: string;
  /** Model versions this definition reads (for cycle checks). */
  dependsOn: string[];
}

export function toModelSpec(definition: ModelDefinition, sources: LoadedSource[]): ModelSpec {
  return {
    sources: sources
      .filter((s) => !s.missing)
      .map((s) => ({
        sourceId: s.sourceId,
        sourceType: s.sourceType,
        relation: s.relation,
        columns: s.columns,
        displayName: s.name,
        rowKey: s.rowKey ?? null,
      })),
    columns: definition.columns.map((c) => ({
      columnKey: c.columnKey,
      displayName: c.displayName,
      order: c.order,
      sourceColumn: c.sourceColumn,
      function: c.function,
      castTo: c.castTo,
    })),
    joins: definition.joins,
    filterGroups: definition.filterGroups,
    sort: definition.sort.map((s) => ({ columnKey: s.columnKey, direction: s.direction })),
  };
}

function dependenciesOf(column: ModelColumn): string[] {
  if (!column.function) return [];
  try {
    return referencedColumnKeys(column.function);
  } catch {
    return [];
  }
}

export function describeDefinition(definition: ModelDefinition, sources: LoadedSource[]): DescribedDefinition {
  const spec = toModelSpec(definition, sources);
  const errors: ModelErrors = validateModel(spec, definition.pivots);
  let compiled: CompiledModel | null = null;
  let problem: string | null = null;
  let problemColumn: string | null = null;
  try {
    compiled = compileModelSelect(spec);
  } catch (error) {
    if (!isModelError(error)) throw error;
    problem = error.message;
    const [area, index] = error.location;
    if (area === 'columns' && typeof index === 'number') problemColumn = definition.columns[index]?.columnKey ?? null;
  }
  const types = new Map(compiled?.columns.map((c) => [c.columnKey, c.type]) ?? []);
  const columnIssues = new Map(errors.columns.map((issue) => [issue.columnKey, issue]));
  const columns = definition.columns.map((column): ModelColumn => {
    const issue = columnIssues.get(column.columnKey);
    const error = issue
      ? { message: issue.message, missingColumnKeys: issue.missingColumnKeys }
      : problemColumn === column.columnKey && problem
        ? { message: problem, missingColumnKeys: [] }
        : null;
    return {
      ...column,
      type: types.get(column.columnKey) ?? column.type,
      dependentColumnKeys: dependenciesOf(column),
      error,
    };
  });
  const dependsOn = [
    ...new Set(sources.filter((s) => s.sourceType === 'ModelVersion' && !s.missing).map((s) => s.sourceId)),
  ];
  const missing = sources.filter((s) => s.missing);
  if (!problem && missing.length > 0) problem = `${missing[0]?.name ?? 'A source'} is no longer available.`;
  const viewSql = compiled ? renderForDisplay(renderSelect(compiled.statement)) : '';
  const shownSql = compiled
    ? renderForDisplay(renderSelect(renameItems(compiled.statement, displayAliases(compiled.columns))))
    : '';
  return { columns, errors, compiled, problem, viewSql, shownSql, dependsOn };
}

const CHECK_KEY = '_formula_check';

/** A checked formula: valid ones carry their stored form (`[key]` references). */
export type CheckedFormula = ValidateFunctionResult & { keyed: string | null };

function invalid(message: string, start: number | null, end: number | null, dependentColumnKeys: string[]) {
  return { valid: false, message, start, end, type: null, dependentColumnKeys, keyed: null };
}

/**
 * Checks a formula as typed (columns by display name, or by key) as the column `columnKey` (or a
 * new column) of the model: syntax, names and types, in the model's own column scope. Positions
 * point into the typed text. Problems elsewhere in the model do not make it invalid.
 */
export function checkFormula(
  definition: ModelDefinition,
  sources: LoadedSource[],
  formula: string,
  columnKey: string | null,
): CheckedFormula {
  const key = columnKey && definition.columns.some((c) => c.columnKey === columnKey) ? columnKey : CHECK_KEY;
  let keyed: KeyedFormula;
  try {
    keyed = formulaNamesToKeys(formula, definition.columns);
  } catch (error) {
    if (!isModelError(error)) throw error;
    const [, start, end] = error.location;
    return invalid(error.message, typeof start === 'number' ? start : null, typeof end === 'number' ? end : null, []);
  }
  const existing = definition.columns.find((c) => c.columnKey === key);
  const label = existing?.displayName ?? 'New column';
  const checked: ModelColumn = {
    ...(existing ?? blankColumn(key, label, definition.columns.length)),
    function: keyed.text,
    sourceColumn: null,
    castTo: null,
  };
  const columns = existing
    ? definition.columns.map((c) => (c.columnKey === key ? checked : c))
    : [...definition.columns, checked];
  const spec = toModelSpec({ ...definition, columns }, sources);
  const index = columns.findIndex((c) => c.columnKey === key);
  const dependentColumnKeys = referencedColumnKeys(keyed.text);
  try {
    const compiled = compileModelSelect(spec);
    const type = compiled.columns.find((c) => c.columnKey === key)?.type ?? null;
    return { valid: true, message: null, start: null, end: null, type, dependentColumnKeys, keyed: keyed.text };
  } catch (error) {
    if (!isModelError(error)) throw error;
    const [area, at, field, start, end] = error.location;
    const inThisColumn = area === 'columns' && at === index;
    const fromFormula = area === 'function';
    if (!inThisColumn && !fromFormula) {
      return { valid: true, message: null, start: null, end: null, type: null, dependentColumnKeys, keyed: keyed.text };
    }
    const prefix = `Column "${label}": `;
    const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    const span = fromFormula ? [at, field] : [start, end];
    const typed = (offset: unknown) => (typeof offset === 'number' ? keyed.toTyped(offset) : null);
    return invalid(message, typed(span[0]), typed(span[1]), dependentColumnKeys);
  }
}

function blankColumn(columnKey: string, displayName: string, order: number): ModelColumn {
  return {
    columnKey,
    displayName,
    description: null,
    order,
    type: 'Text',
    format: null,
    displayWidth: null,
    function: null,
    sourceColumn: null,
    dependentColumnKeys: [],
    error: null,
    castTo: null,
    style: null,
  };
}

/**
 * The model's columns as SQL expressions over the join tree, with their types.
 *
 * A raw column is its source column qualified by the source's alias; `castTo` converts it (TRY_CAST:
 * a value that does not convert becomes null). A function column is its formula compiled against
 * the other model columns: a reference is replaced by the referenced column's expression (no
 * nested subqueries), so function columns may use each other, but never in a cycle.
 */
import type { ColumnType } from '../../shared/tables';
import { checkIdentifier } from '../dialect';
import { ModelError, isModelError } from '../errors';
import { compileFormula, dateFromText, dateTimeFromText, numberFromText, referencedColumnKeys } from '../formula';
import type { Expr, SqlType, TextShape } from '../sql-ast';
import type { ModelColumnSpec } from './ir';
import type { JoinTree } from './join-tree';
import { notJoinedMessage, removedColumnMessage } from './messages';
import type { SourceIndex } from './sources';

export interface ModelColumn {
  spec: ModelColumnSpec;
  /** Index in the model's `columns`, for error locations. */
  index: number;
  expr: Expr;
  type: ColumnType;
  /** The warehouse type of the value when known (a raw column's stored type): filters bind in it. */
  sqlType?: string;
}

/** The model's columns in display order: by `order`, then as listed. */
export function orderedColumns(columns: readonly ModelColumnSpec[]): { spec: ModelColumnSpec; index: number }[] {
  return columns
    .map((spec, index) => ({ spec, index }))
    .sort((a, b) => a.spec.order - b.spec.order || a.index - b.index);
}

const label = (spec: ModelColumnSpec): string => spec.displayName || spec.columnKey;

/** What each type may be converted to, besides itself: scalars through TRY_CAST, lists and JSON only to their text. */
const CONVERSIONS: Record<ColumnType, { sqlType: SqlType; from: readonly ColumnType[] } | null> = {
  Text: { sqlType: 'text', from: ['Number', 'Boolean', 'Date', 'DateTime', 'Array', 'Json'] },
  Number: { sqlType: 'double', from: ['Text', 'Boolean'] },
  Boolean: { sqlType: 'boolean', from: ['Text', 'Number'] },
  Date: { sqlType: 'date', from: ['Text', 'DateTime'] },
  DateTime: { sqlType: 'timestamp', from: ['Text', 'Date'] },
  Array: null,
  Json: null,
};

const TEXT_SHAPES: Partial<Record<ColumnType, TextShape>> = { Array: 'array', Json: 'json', Number: 'number' };

/**
 * Text is read as TO_NUMBER, TO_DATE and TO_DATETIME read it: an offset converted to UTC, an era in
 * ISO years, only plain numbers; DuckDB's TRY_CAST would drop the offset and the era.
 */
const FROM_TEXT: Partial<Record<ColumnType, (text: Expr) => Expr>> = {
  Number: numberFromText,
  Date: dateFromText,
  DateTime: dateTimeFromText,
};

function convert(column: ModelColumn): ModelColumn {
  const to = column.spec.castTo;
  if (to === null || to === undefined || to === column.type) return column;
  const conversion = CONVERSIONS[to];
  if (!conversion || !conversion.from.includes(column.type)) {
    throw new ModelError(
      `Column "${label(column.spec)}": a ${column.type} column cannot be converted to ${String(to)}`,
      'invalid_cast',
      ['columns', column.index, 'castTo'],
    );
  }
  // Lists, JSON and numbers become Text as the grid shows them (numbers: no `.0`, no exponent).
  const shape = TEXT_SHAPES[column.type];
  const fromText = column.type === 'Text' ? FROM_TEXT[to] : undefined;
  const expr: Expr =
    to === 'Text' && shape
      ? { kind: 'text-of', expr: column.expr, shape }
      : fromText
        ? fromText(column.expr)
        : { kind: 'try-cast', expr: column.expr, type: conversion.sqlType };
  // A conversion to Number is a TRY_CAST to DOUBLE; other targets are not numbers.
  return { ...column, expr, type: to, sqlType: to === 'Number' ? 'DOUBLE' : undefined };
}

function rawColumn(spec: ModelColumnSpec, index: number, tree: JoinTree, sources: SourceIndex): ModelColumn {
  const ref = spec.sourceColumn!;
  const location = ['columns', index, 'sourceColumn'];
  const source = sources.source(ref);
  const stored = sources.column(ref, ref.columnKey);
  if (!source || !stored) {
    throw new ModelError(removedColumnMessage([ref.columnKey]), 'column_removed', [...location, 'columnKey']);
  }
  const alias = tree.aliasOf(ref);
  if (alias === undefined) throw new ModelError(notJoinedMessage(source), 'source_not_joined', location);
  const expr: Expr = { kind: 'column', table: alias, name: ref.columnKey };
  return { spec, index, expr, type: stored.type, sqlType: stored.sqlType };
}

/** A formula problem located in the model: `['columns', i, 'function', start, end]`, the column named. */
function inColumn(error: unknown, spec: ModelColumnSpec, index: number): unknown {
  if (!isModelError(error) || error.location[0] !== 'function') return error;
  return new ModelError(`Column "${label(spec)}": ${error.message}`, error.code, ['columns', index, ...error.location]);
}

export function compileModelColumns(
  columns: readonly ModelColumnSpec[],
  tree: JoinTree,
  sources: SourceIndex,
): ModelColumn[] {
  const byKey = new Map<string, { spec: ModelColumnSpec; index: number }>();
  columns.forEach((spec, index) => {
    checkIdentifier(spec.columnKey, ['columns', index, 'columnKey']);
    // Column keys are made by the server; two alike is its bug.
    if (byKey.has(spec.columnKey)) throw new Error(`Model column "${spec.columnKey}" is listed twice`);
    byKey.set(spec.columnKey, { spec, index });
  });

  const done = new Map<string, ModelColumn>();
  /** Keys being compiled, outermost first: a key met again closes a cycle. */
  const path: string[] = [];

  const compile = (key: string): ModelColumn => {
    const known = done.get(key);
    if (known) return known;
    const { spec, index } = byKey.get(key)!;
    let column: ModelColumn;
    if (typeof spec.function === 'string' && spec.function.trim() !== '') {
      column = functionColumn(spec, index);
    } else if (spec.sourceColumn) {
      column = rawColumn(spec, index, tree, sources);
    } else {
      throw new ModelError(`Column "${label(spec)}" has neither a source column nor a function`, 'column_removed', [
        'columns',
        index,
      ]);
    }
    column = convert(column);
    done.set(key, column);
    return column;
  };

  const functionColumn = (spec: ModelColumnSpec, index: number): ModelColumn => {
    const text = spec.function!;
    let references: string[];
    try {
      references = referencedColumnKeys(text);
    } catch (error) {
      throw inColumn(error, spec, index);
    }
    const missing = references.filter((key) => !byKey.has(key));
    if (missing.length > 0) {
      throw new ModelError(removedColumnMessage(missing), 'column_removed', ['columns', index, 'function']);
    }
    path.push(spec.columnKey);
    for (const reference of references) {
      const at = path.indexOf(reference);
      if (at !== -1) {
        const cycle = [...path.slice(at), reference].map((key) => label(byKey.get(key)!.spec));
        throw new ModelError(
          `Function columns cannot depend on each other in a cycle: ${cycle.join(' → ')}`,
          'function_cycle',
          ['columns', index, 'function'],
        );
      }
      compile(reference);
    }
    path.pop();
    try {
      const formula = compileFormula(text, {
        resolve: (key) => {
          const column = done.get(key);
          return column && { expr: column.expr, type: column.type, displayName: column.spec.displayName };
        },
      });
      return { spec, index, expr: formula.expr, type: formula.type };
    } catch (error) {
      throw inColumn(error, spec, index);
    }
  };

  return orderedColumns(columns).map(({ spec }) => compile(spec.columnKey));
}

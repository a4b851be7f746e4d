/**
 * The pieces pivot statements are made of. The innermost SELECT ("base") is the only place that
 * names the relation's columns; it projects each field under an engine-made alias (`r0` row field,
 * `n0`/`k0` column field as value/as text, `v0` value field), so everything above refers to those.
 */
import type { RelationColumn } from '../ir';
import type { AggregateFunction, Expr, SelectItem } from '../sql-ast';
import type { PivotTimeGrain } from '../../shared/pivots';
import { numericType } from '../values/numeric-types';
import { shownText } from '../values/shown-text';
import type { ResolvedField, ResolvedValue } from './resolve';

export const alias = {
  row: (index: number) => `r${index}`,
  /** A grained row field's group start (a DATE), which its groups sort by; `r` holds its label. */
  rowStart: (index: number) => `d${index}`,
  /** A column field's value, for sorting its keys (Text fields sort by `k`). */
  columnValue: (index: number) => `n${index}`,
  /** A column field's text: column keys are grouped, returned and matched as text. */
  columnText: (index: number) => `k${index}`,
  value: (index: number) => `v${index}`,
  /** Partial aggregates of value field `index` per partial group (Avg: the sum in `p`, the count in `q`). */
  partial: (index: number) => `p${index}`,
  partialCount: (index: number) => `q${index}`,
  /** Cell of column key `key` (a pivot with column fields) and value `value`. */
  cell: (key: number, value: number) => `c${key}_v${value}`,
  /** Cell of value `value` in a pivot without column fields. */
  valueCell: (value: number) => `v${value}`,
  rowTotal: (value: number) => `total_v${value}`,
} as const;

export const ref = (name: string): Expr => ({ kind: 'column', name });
export const constant = (value: number): Expr => ({ kind: 'constant', value });
export const equals = (left: Expr, right: Expr): Expr => ({ kind: 'compare', op: '=', left, right });

/**
 * A row field's value as it is grouped, sorted and shown: Text columns as text (UUID, TIME, ENUM
 * columns show and compare as their text, as in table filters), other types as they are.
 */
export function groupingExpr(column: RelationColumn): Expr {
  const expr = ref(column.columnKey);
  return column.type === 'Text' ? shownText(expr, column.sqlType) : expr;
}

/** The exact text of a value, the form column keys travel in between the key query and the pivot query. */
export function textExpr(column: RelationColumn): Expr {
  return shownText(ref(column.columnKey), column.sqlType);
}

/**
 * The first day of the field's time grain for each row, as a DATE (a DateTime's day in UTC, the
 * zone of TIMESTAMP columns): what a grained field groups and sorts by.
 */
export function grainStart(field: ResolvedField & { grain: PivotTimeGrain }): Expr {
  return {
    kind: 'cast',
    expr: { kind: 'date-trunc', expr: ref(field.column.columnKey), grain: field.grain },
    type: 'date',
  };
}

/** A grained field's group as its label (`2024-Q1`): what headers, cells and column keys show. */
export function grainLabel(field: ResolvedField & { grain: PivotTimeGrain }): Expr {
  return { kind: 'date-label', expr: grainStart(field), grain: field.grain };
}

/** A column field's key as text: its group's label when grained, else its value's exact text. */
export function columnKeyText(field: ResolvedField): Expr {
  return hasGrain(field) ? grainLabel(field) : textExpr(field.column);
}

/** Whether a row or column field groups by a time grain. */
export function hasGrain(field: ResolvedField): field is ResolvedField & { grain: PivotTimeGrain } {
  return field.grain !== null;
}

const aggregate = (func: AggregateFunction, arg: Expr, filter: Expr | null = null, distinct = false): Expr => ({
  kind: 'aggregate',
  func,
  arg,
  distinct,
  filter,
  over: null,
});

/**
 * Values aggregate in two steps, because one pass over the rows with a FILTER per cell measured 10
 * times slower on 1M rows than grouping the rows first by every field (the "partial" groups, few
 * compared to rows) and pivoting those. Step one, per partial group: these aggregates of value
 * field `index`. Count unique has none: its values are grouping keys instead (`partialKeys`).
 */
export function partialAggregates(value: ResolvedValue, index: number): SelectItem[] {
  const arg = ref(alias.value(index));
  switch (value.func) {
    case 'Count':
      return [{ expr: aggregate('count', arg), alias: alias.partial(index) }];
    case 'Sum':
      return [{ expr: aggregate('sum', arg), alias: alias.partial(index) }];
    case 'Min':
      return [{ expr: aggregate('min', arg), alias: alias.partial(index) }];
    case 'Max':
      return [{ expr: aggregate('max', arg), alias: alias.partial(index) }];
    case 'Avg':
      return [
        { expr: aggregate('sum', arg), alias: alias.partial(index) },
        { expr: aggregate('count', arg), alias: alias.partialCount(index) },
      ];
    case 'CountUnique':
      return [];
  }
}

/** Base aliases the partial groups must also be grouped by for value field `index` (its distinct values). */
export function partialKeys(value: ResolvedValue, index: number): string[] {
  return value.func === 'CountUnique' ? [alias.value(index)] : [];
}

/**
 * Step two: value field `index` over the partial groups where `filter` holds (all of the group's if
 * null). Count is 0, not null, where no rows are; Avg is the sum of sums over the sum of counts.
 */
export function aggregateValue(value: ResolvedValue, index: number, filter: Expr | null): Expr {
  const partial = ref(alias.partial(index));
  switch (value.func) {
    case 'Count':
      return { kind: 'func', name: 'coalesce', args: [aggregate('sum', partial, filter), constant(0)] };
    case 'CountUnique':
      return aggregate('count', ref(alias.value(index)), filter, true);
    case 'Sum':
      return aggregate('sum', partial, filter);
    case 'Min':
      return aggregate('min', partial, filter);
    case 'Max':
      return aggregate('max', partial, filter);
    case 'Avg':
      return average(
        value,
        aggregate('sum', partial, filter),
        aggregate('sum', ref(alias.partialCount(index)), filter),
      );
  }
}

/**
 * `sum / count` as a double. A DECIMAL's sum converted to a double first is rounded once before the
 * division rounds again: 0.1, 0.2 and 0.3 would average 0.19999999999999998. Its digits without the
 * point (the whole number of 10^-scale units, which its text always writes) are divided instead,
 * then scaled, as DuckDB's own avg of a DECIMAL does: 600000 / 3 / 10^6 is 0.2.
 */
function average(value: ResolvedValue, sum: Expr, count: Expr): Expr {
  const type = numericType(value.column.sqlType);
  const scale = type?.kind === 'exact' ? type.scale : 0;
  if (scale === 0) return ratio(sum, count);
  const text = (literal: string): Expr => ({ kind: 'param', value: literal, type: 'text' });
  const units: Expr = {
    kind: 'func',
    name: 'replace',
    args: [{ kind: 'cast', expr: sum, type: 'text' }, text('.'), text('')],
  };
  return { kind: 'arithmetic', op: '/', left: ratio(units, count), right: constant(10 ** scale) };
}

/** `numerator / denominator` as a double; null when the denominator is 0 or null. */
export function ratio(numerator: Expr, denominator: Expr): Expr {
  return {
    kind: 'arithmetic',
    op: '/',
    left: { kind: 'cast', expr: numerator, type: 'double' },
    right: { kind: 'nullif', expr: denominator, value: constant(0) },
  };
}

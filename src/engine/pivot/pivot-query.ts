/**
 * The pivot grid in one statement. Each result row is a row of the grid: grouped by the row fields
 * (GROUPING SETS add the subtotal and grand total rows), one cell per column key and value as an
 * aggregate `FILTER (WHERE k0 = $1 AND k1 IS NULL ..)` of the partial groups (grouped-query.ts),
 * row totals as the same aggregate unfiltered.
 * Percentages divide by the row total, by the column key's grand total or by the value's grand total
 * (window reads of the grand total row, computed even when it is not shown); 0 or null divisors give
 * null. Rows page with LIMIT/OFFSET, totals last. See the README's "Pivots" section.
 */
import { PIVOT_MAX_COLUMN_KEYS, type PivotColumnKey, type PivotLayout } from '../../shared/pivots';
import { duckdbDialect } from '../dialects/duckdb';
import { ModelError } from '../errors';
import { renderSelect } from '../render';
import type { Expr, SelectItem } from '../sql-ast';
import type { CompiledQuery } from '../sql';
import {
  aggregateValue,
  alias,
  columnKeyText,
  equals,
  grainLabel,
  grainStart,
  groupingExpr,
  hasGrain,
  partialAggregates,
  partialKeys,
  ratio,
  ref,
} from './expressions';
import { LEVEL_ALIAS, buildGroupedQuery, sortDepths, withItems, type GroupField, type Levels } from './grouped-query';
import type { PivotQueryInput } from './ir';
import { buildLayout, hasColumnTotals, hasRowTotals } from './layout';
import { resolvePivot, type ResolvedPivot, type ResolvedValue } from './resolve';

export function compilePivotQuery(input: PivotQueryInput): { compiled: CompiledQuery; layout: PivotLayout } {
  const page = checkPage(input.page);
  const pivot = resolvePivot(input);
  const columnKeys = checkColumnKeys(input.columnKeys, pivot);
  const layout = buildLayout(pivot, columnKeys);
  const withKeys = pivot.columns.length > 0 && pivot.values.length > 0;

  const baseItems: SelectItem[] = [
    // A grained row field groups and sorts by its group's first day and shows its label.
    ...pivot.rows.flatMap((field, index) =>
      hasGrain(field)
        ? [
            { expr: grainStart(field), alias: alias.rowStart(index) },
            { expr: grainLabel(field), alias: alias.row(index) },
          ]
        : [{ expr: groupingExpr(field.column), alias: alias.row(index) }],
    ),
    ...(withKeys
      ? pivot.columns.map((field, index) => ({ expr: columnKeyText(field), alias: alias.columnText(index) }))
      : []),
    ...pivot.values.map((value, index) => ({ expr: groupingExpr(value.column), alias: alias.value(index) })),
  ];
  const fields: GroupField[] = pivot.rows.map((field, index) => ({
    keys: hasGrain(field) ? [alias.rowStart(index), alias.row(index)] : [alias.row(index)],
    order: field.order,
    sortValue:
      field.valueIndex === null ? null : aggregateValue(pivot.values[field.valueIndex]!, field.valueIndex, null),
  }));
  const detail = fields.length;
  const totals = hasColumnTotals(pivot) ? Array.from({ length: detail }, (_, depth) => depth) : [];
  const ofGrandTotal = pivot.values.some(
    (value) => value.showAs === 'PercentOfColumn' || value.showAs === 'PercentOfGrandTotal',
  );
  const empty = baseItems.length === 0;

  const statement = buildGroupedQuery({
    base: {
      kind: 'select',
      // A pivot with no fields at all has nothing to show (limit 0); the statement stays valid.
      items: withItems(baseItems),
      from: pivot.from,
      where: pivot.where,
      orderBy: [],
      limit: null,
      offset: null,
    },
    partial: {
      // Cells filter the partial groups by column key, so those are grouped by the column fields too.
      keys: [
        ...(withKeys ? pivot.columns.map((_, index) => alias.columnText(index)) : []),
        ...pivot.values.flatMap((value, index) => partialKeys(value, index)),
      ],
      items: pivot.values.flatMap((value, index) => partialAggregates(value, index)),
    },
    fields,
    shownDepths: [detail, ...totals],
    windowDepths: [...sortDepths(fields), ...(ofGrandTotal ? [0] : [])],
    cells: (levels) => cellItems(pivot, columnKeys, levels),
    output: [
      ...pivot.rows.map((_, index) => alias.row(index)),
      LEVEL_ALIAS,
      ...layout.columns.filter((c) => c.kind !== 'row-field').map((c) => c.key),
    ],
    limit: empty ? 0 : page.limit,
    offset: page.offset,
  });
  return { compiled: renderSelect(statement, input.dialect ?? duckdbDialect), layout };
}

function cellItems(pivot: ResolvedPivot, columnKeys: readonly PivotColumnKey[], levels: Levels): SelectItem[] {
  const items: SelectItem[] = [];
  if (pivot.columns.length === 0) {
    pivot.values.forEach((value, index) =>
      items.push({
        expr: shown(value, aggregateValue(value, index, null), index, levels),
        alias: alias.valueCell(index),
      }),
    );
    return items;
  }
  columnKeys.forEach((key, keyIndex) => {
    const match = keyMatch(key);
    pivot.values.forEach((value, index) =>
      items.push({
        expr: shown(value, aggregateValue(value, index, match), index, levels),
        alias: alias.cell(keyIndex, index),
      }),
    );
  });
  if (hasRowTotals(pivot)) {
    pivot.values.forEach((value, index) =>
      items.push({
        expr: shown(value, aggregateValue(value, index, null), index, levels),
        alias: alias.rowTotal(index),
      }),
    );
  }
  return items;
}

/**
 * A cell as its value field shows it. `cell` is the aggregate over the cell's rows; the row total is
 * the aggregate over the row's rows in all columns; the column total is the cell's own aggregate
 * on the grand total row, the grand total the row total's. For Sum and Count these are sums of
 * cells; for Avg, Min, Max and Count unique they are the aggregate over the wider set of rows.
 */
function shown(value: ResolvedValue, cell: Expr, index: number, levels: Levels): Expr {
  const rowTotal = (): Expr => aggregateValue(value, index, null);
  switch (value.showAs) {
    case 'Default':
      return cell;
    case 'PercentOfRow':
      return ratio(cell, rowTotal());
    case 'PercentOfColumn':
      return ratio(cell, levels.atDepth(cell, 0));
    case 'PercentOfGrandTotal':
      return ratio(cell, levels.atDepth(rowTotal(), 0));
  }
}

/** The rows of one column key: each column field's text equal to the key's, or null where the key is. */
function keyMatch(key: PivotColumnKey): Expr {
  const conditions: Expr[] = key.map((part, index) => {
    const column = ref(alias.columnText(index));
    if (part === null) return { kind: 'is-null', expr: column, negated: false };
    return equals(column, { kind: 'param', value: part, type: 'text' });
  });
  return conditions.length === 1 ? conditions[0]! : { kind: 'and', items: conditions };
}

function checkPage(page: PivotQueryInput['page']): PivotQueryInput['page'] {
  const { offset, limit } = page;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new ModelError(`The offset must be a whole number from 0, got ${offset}`, 'invalid_page', ['page', 'offset']);
  }
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new ModelError(`The limit must be a whole number from 0, got ${limit}`, 'invalid_page', ['page', 'limit']);
  }
  return page;
}

/** Column keys as text, one part per column field; unused (empty) when the pivot makes no per-key cells. */
function checkColumnKeys(keys: PivotQueryInput['columnKeys'], pivot: ResolvedPivot): PivotColumnKey[] {
  if (pivot.columns.length === 0 || pivot.values.length === 0) return [];
  if (keys.length > PIVOT_MAX_COLUMN_KEYS) {
    throw new ModelError(
      `The pivot has ${keys.length} column keys; it shows at most ${PIVOT_MAX_COLUMN_KEYS}. Filter the pivot, or choose a column field with fewer values.`,
      'too_many_column_keys',
      ['columns'],
    );
  }
  return keys.map((key) => {
    // The keys come from the key query, not from a user: a wrong shape is a bug.
    if (key.length !== pivot.columns.length)
      throw new Error(`A column key has ${key.length} parts, not ${pivot.columns.length}`);
    return key.map((part) => (part === null ? null : String(part)));
  });
}

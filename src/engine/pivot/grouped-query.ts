/**
 * The statement shape both pivot queries share, four SELECTs deep:
 *
 *   SELECT <output> FROM (                                  -- "pivot": shown levels, order, page
 *     SELECT <keys>, GROUPING(..) AS "_level", <cells>       -- "grouped": all levels at once
 *     FROM (
 *       SELECT <all keys>, <partial aggregates>              -- "partial": the finest groups
 *       FROM (SELECT <fields AS aliases> FROM relation WHERE <filters>) AS "base"
 *       GROUP BY <all keys>
 *     ) AS "partial"
 *     GROUP BY GROUPING SETS ((r0, r1), (r0), ())
 *   ) AS "pivot" WHERE "_level" IN <shown> ORDER BY .. LIMIT .. OFFSET ..
 *
 * The partial groups (by every row and column field) are few compared to rows, so the many
 * FILTERed cell aggregates and the grouping sets run over them rather than over the rows.
 * A row's depth is how many fields it is grouped by (all: a detail row; 0: the grand total).
 * Windows over the grouped rows read one level's values into every row (`atDepth`): the grand total
 * for percentages, an outer group's aggregate to sort by. They run before the outer WHERE, so a
 * level can be computed for them and still not be shown.
 *
 * Order: for each field in turn, its totals after its details (`GROUPING(field)`), then the sort
 * value if any, then the key; nulls last. The grand total row is always last, and the order is total
 * (every row differs in level or keys), so OFFSET pages never repeat or skip a row.
 */
import type { Expr, OrderItem, SelectItem, SelectStatement, SortOrder } from '../sql-ast';
import { constant, equals, ref } from './expressions';

export const LEVEL_ALIAS = '_level';
const GROUPED_ALIAS = 'pivot';
const PARTIAL_ALIAS = 'partial';
const BASE_ALIAS = 'base';
const groupingAlias = (index: number) => `_g${index}`;
const sortAlias = (index: number) => `_s${index}`;

export interface GroupField {
  /** Base aliases grouped together; the first identifies the field's totals and is sorted first. */
  keys: readonly string[];
  order: SortOrder;
  /** An aggregate (over all columns) to order the field's groups by, or null to order by key. */
  sortValue: Expr | null;
}

export interface GroupedQuery {
  base: SelectStatement;
  /** The finest groups: the fields' keys plus `keys` (values counted unique), with `items` per group. */
  partial: { keys: readonly string[]; items: readonly SelectItem[] };
  /** Outer to inner. */
  fields: readonly GroupField[];
  /** Depths returned; the detail depth (`fields.length`) must be among them. */
  shownDepths: readonly number[];
  /** Depths computed for windows only (e.g. 0 for percentages of the grand total). */
  windowDepths: readonly number[];
  /** Items of the grouped SELECT besides keys and level, given the level helper. */
  cells: (levels: Levels) => SelectItem[];
  /** Aliases the outer SELECT returns, in order. */
  output: readonly string[];
  limit: number;
  offset: number;
}

/** Which grouping level a grouped row is, and windows that read another level's value. */
export class Levels {
  /** `GROUPING(first keys)`: bit i (from the left) set where the row is a total over field i. */
  readonly expr: Expr;

  constructor(
    private readonly fields: readonly GroupField[],
    readonly depths: readonly number[],
  ) {
    this.expr = depths.length > 1 ? grouping(fields.map((field) => field.keys[0]!)) : constant(0);
  }

  /** The `_level` value of rows grouped by the first `depth` fields. */
  mask(depth: number): number {
    return 2 ** (this.fields.length - depth) - 1;
  }

  /**
   * `expr` as computed on the row of level `depth` that contains this row (the row itself at the
   * detail depth): `max(expr) FILTER (WHERE level = depth) OVER (PARTITION BY outer keys)`.
   */
  atDepth(expr: Expr, depth: number): Expr {
    if (depth === this.fields.length) return expr;
    if (!this.depths.includes(depth)) throw new Error(`Pivot level ${depth} is not computed`);
    const outer = this.fields.slice(0, depth).map((field) => field.keys[0]!);
    const partitionBy = outer.length === 0 ? [] : [...outer.map(ref), grouping(outer)];
    return {
      kind: 'aggregate',
      func: 'max',
      arg: expr,
      distinct: false,
      filter: equals(this.expr, constant(this.mask(depth))),
      over: { partitionBy },
    };
  }
}

function grouping(aliases: readonly string[]): Expr {
  return { kind: 'grouping', args: aliases.map(ref) };
}

export function buildGroupedQuery(query: GroupedQuery): SelectStatement {
  const { fields } = query;
  const detail = fields.length;
  const needed = new Set([...query.shownDepths, ...query.windowDepths]);
  if (!query.shownDepths.includes(detail)) throw new Error('A pivot query must show its detail rows');
  const depths = [...needed].sort((a, b) => b - a);
  const levels = new Levels(fields, depths);
  const several = depths.length > 1;

  const items: SelectItem[] = fields.flatMap((field) => field.keys.map((key) => ({ expr: ref(key), alias: null })));
  items.push({ expr: levels.expr, alias: LEVEL_ALIAS });
  fields.forEach((field, index) => {
    if (several) items.push({ expr: grouping([field.keys[0]!]), alias: groupingAlias(index) });
    // The innermost field's groups are the rows themselves; outer ones read their level's value.
    if (field.sortValue) items.push({ expr: levels.atDepth(field.sortValue, index + 1), alias: sortAlias(index) });
  });
  items.push(...query.cells(levels));

  const partialKeys = [...new Set([...fields.flatMap((field) => field.keys), ...query.partial.keys])];
  const partial: SelectStatement = {
    kind: 'select',
    items: withItems([...partialKeys.map((key) => ({ expr: ref(key), alias: null })), ...query.partial.items]),
    from: { kind: 'subquery', select: query.base, alias: BASE_ALIAS },
    where: null,
    groupBy: { sets: [partialKeys.map(ref)] },
    orderBy: [],
    limit: null,
    offset: null,
  };
  const grouped: SelectStatement = {
    kind: 'select',
    items,
    from: { kind: 'subquery', select: partial, alias: PARTIAL_ALIAS },
    where: null,
    groupBy: { sets: depths.map((depth) => fields.slice(0, depth).flatMap((field) => field.keys.map(ref))) },
    orderBy: [],
    limit: null,
    offset: null,
  };

  const shown = [...new Set(query.shownDepths)].sort((a, b) => b - a);
  const shownLevel = (depth: number): Expr => equals(ref(LEVEL_ALIAS), constant(levels.mask(depth)));
  return {
    kind: 'select',
    // A SELECT needs an item; a query without outputs (no fields, limit 0) returns the level.
    items: (query.output.length > 0 ? query.output : [LEVEL_ALIAS]).map((name) => ({ expr: ref(name), alias: null })),
    from: { kind: 'subquery', select: grouped, alias: GROUPED_ALIAS },
    where: depths.length > shown.length ? { kind: 'or', items: shown.map(shownLevel) } : null,
    orderBy: fields.flatMap((field, index) => orderOf(field, index, several)),
    limit: query.limit,
    offset: query.offset,
  };
}

function orderOf(field: GroupField, index: number, several: boolean): OrderItem[] {
  const items: OrderItem[] = [];
  if (several) items.push({ expr: ref(groupingAlias(index)), order: 'asc' });
  if (field.sortValue) items.push({ expr: ref(sortAlias(index)), order: field.order });
  field.keys.forEach((key, position) => {
    const byKey = position === 0 && !field.sortValue;
    items.push({ expr: ref(key), order: byKey ? field.order : 'asc' });
  });
  return items;
}

/** A SELECT needs an item: a statement with nothing to select (a pivot without fields) selects 0. */
export function withItems(items: readonly SelectItem[]): SelectItem[] {
  return items.length > 0 ? [...items] : [{ expr: constant(0), alias: '_none' }];
}

/** Depths an outer field's sort by value reads (the innermost field sorts by its own rows). */
export function sortDepths(fields: readonly GroupField[]): number[] {
  return fields.flatMap((field, index) => (field.sortValue && index < fields.length - 1 ? [index + 1] : []));
}

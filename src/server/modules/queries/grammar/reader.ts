/**
 * The reader's state while it reads the items left to right into a draft query, and the small
 * moves every step shares: the next or previous meaningful item, a measure, a group.
 */
import type { PivotAggregation, PivotTimeGrain } from '../../../../shared/pivots';
import type { CatalogueColumn, CatalogueTable } from '../catalogue';
import { STOPWORDS } from '../lexicon';
import type { QueryFilter, QueryGroup, QueryMeasure, QuerySort } from '../plain-query';
import { isDate, isNumber } from './columns';
import type { Item } from './items';

export interface Draft {
  measures: QueryMeasure[];
  groups: QueryGroup[];
  filters: QueryFilter[];
  sort: QuerySort | null;
  limit: number | null;
  select: string[];
  rank: {
    direction: 'Descending' | 'Ascending';
    n: number;
    byMeasure: boolean;
    entity: 'subject' | CatalogueColumn | null;
  } | null;
  dateColumn: CatalogueColumn | null;
  list: boolean;
  ignored: string[];
}

/** An aggregation word read before the column it applies to. */
export interface PendingAggregation {
  func: PivotAggregation | 'CountRows';
  word: string;
}

/** A grain with no date column named yet ('monthly'): given one once the whole question is read. */
export interface PendingGrain {
  grain: PivotTimeGrain;
  at: number;
  index: number;
}

export interface Reader {
  items: Item[];
  table: CatalogueTable;
  question: string;
  draft: Draft;
  /** Items already read as part of an earlier one. */
  used: Set<Item>;
  pendingAgg: PendingAggregation | null;
  /** A 'not' waiting for the filter it turns around. */
  negate: boolean;
  pendingGrains: PendingGrain[];

  next: (i: number) => number;
  prev: (i: number) => number;
  addGroup: (col: CatalogueColumn, grain: PivotTimeGrain | null) => void;
  /** A grain at i ('month', 'month of ordered_at'): the date column it applies to. */
  grainColumn: (i: number) => CatalogueColumn | 'default';
}

export function measureFor(func: PivotAggregation | 'CountRows', col: CatalogueColumn | null): QueryMeasure {
  if (col === null) return { function: 'Count', column: null };
  if (func === 'CountRows') return { function: isNumber(col) ? 'Sum' : 'CountUnique', column: col.key };
  if ((func === 'Sum' || func === 'Avg') && !isNumber(col)) return { function: 'CountUnique', column: col.key };
  return { function: func, column: col.key };
}

export function newReader(items: Item[], table: CatalogueTable, question: string): Reader {
  const draft: Draft = {
    measures: [],
    groups: [],
    filters: [],
    sort: null,
    limit: null,
    select: [],
    rank: null,
    dateColumn: null,
    list: false,
    ignored: [],
  };
  const used = new Set<Item>();
  const skippable = (item: Item | undefined) =>
    item !== undefined &&
    ((item.k === 'word' && STOPWORDS.has(item.m.text)) || (item.k === 'kw' && item.kw.kind === 'of'));

  const next = (i: number): number => {
    let j = i + 1;
    while (j < items.length && skippable(items[j])) j++;
    return j;
  };
  const prev = (i: number): number => {
    let j = i - 1;
    while (j >= 0 && skippable(items[j])) j--;
    return j;
  };
  const addGroup = (col: CatalogueColumn, grain: PivotTimeGrain | null) => {
    if (draft.groups.some((g) => g.column === col.key && g.grain === grain)) return;
    draft.groups.push({ column: col.key, grain: isDate(col) ? (grain ?? 'day') : null });
  };
  const grainColumn = (i: number): CatalogueColumn | 'default' => {
    const j = next(i);
    const after = items[j];
    if (after?.k === 'col' && isDate(after.col)) {
      used.add(after);
      return after.col;
    }
    return 'default';
  };
  return {
    items,
    table,
    question,
    draft,
    used,
    pendingAgg: null,
    negate: false,
    pendingGrains: [],
    next,
    prev,
    addGroup,
    grainColumn,
  };
}

import { z } from 'zod';
import { LIMITS } from '../../../shared/limits';
import { FILTER_OPERATORS, SORT_DIRECTIONS, type FilterGroup, type Sorting } from '../../../shared/tables';

/**
 * Grid state in the URL, as the spec writes it: sort as `key:direction` (repeated for several
 * columns) and filters as columnKey, operator, value (value2 and conditionOperator when set).
 * Routes put `gridSearchSchema` into their validateSearch.
 */
export const gridSearchSchema = z.object({
  sort: z.array(z.string()).optional(),
  filter: z.array(z.string()).optional(),
  /** 'pages' reads the grid page by page; absent means infinite scroll. A bad value reads as absent. */
  view: z.enum(['pages', 'scroll']).optional().catch(undefined),
  page: z.number().int().min(1).optional().catch(undefined),
  pageSize: z
    .number()
    .refine((n) => (LIMITS.pageSizes as readonly number[]).includes(n))
    .optional()
    .catch(undefined),
});
export type GridSearch = z.infer<typeof gridSearchSchema>;

/** The page and page size of a paged grid from the URL (page 1 of 50 by default), or null for scrolling. */
export function decodePaging(search: GridSearch): { page: number; pageSize: number } | null {
  if (search.view !== 'pages') return null;
  return { page: search.page ?? 1, pageSize: search.pageSize ?? LIMITS.defaultPageSize };
}

/** URL fields for a paging state; defaults are left out so plain links stay short. */
export function encodePaging(paging: { page: number; pageSize: number } | null): Partial<GridSearch> {
  if (!paging) return { view: undefined, page: undefined, pageSize: undefined };
  return {
    view: 'pages',
    page: paging.page > 1 ? paging.page : undefined,
    pageSize: paging.pageSize !== LIMITS.defaultPageSize ? paging.pageSize : undefined,
  };
}

export function encodeSorting(sorting: Sorting[]): string[] | undefined {
  return sorting.length ? sorting.map((s) => `${s.columnKey}:${s.direction}`) : undefined;
}

export function decodeSorting(values: string[] | undefined): Sorting[] {
  return (values ?? []).flatMap((value) => {
    const at = value.lastIndexOf(':');
    const columnKey = at > 0 ? value.slice(0, at) : value;
    const direction = at > 0 ? value.slice(at + 1) : 'Ascending';
    if (!columnKey || !(SORT_DIRECTIONS as readonly string[]).includes(direction)) return [];
    return [{ columnKey, direction: direction as Sorting['direction'] }];
  });
}

const urlFilterSchema = z.object({
  g: z.number().int().min(0).default(0),
  columnKey: z.string(),
  operator: z.enum(FILTER_OPERATORS),
  value: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
  value2: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
  conditionOperator: z.enum(['Or', 'And']).default('Or'),
});

/** Each filter is one JSON text in the `filter` list; `g` is its group's index. */
export function encodeFilterGroups(groups: FilterGroup[]): string[] | undefined {
  const encoded = groups.flatMap((group, g) => group.filters.map((f) => JSON.stringify({ g, ...f })));
  return encoded.length ? encoded : undefined;
}

export function decodeFilterGroups(values: string[] | undefined): FilterGroup[] {
  const groups: FilterGroup[] = [];
  for (const value of values ?? []) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      continue;
    }
    const result = urlFilterSchema.safeParse(parsed);
    if (!result.success) continue;
    const { g, ...filter } = result.data;
    while (groups.length <= g) groups.push({ filters: [] });
    groups[g]!.filters.push(filter);
  }
  return groups.filter((group) => group.filters.length > 0);
}

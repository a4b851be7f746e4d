import { z } from 'zod';
import { LIMITS, type PageSize } from '../../shared/limits';

/** A list page's URL: the name filter, the page and the rows per page (50, 100, 200). */
export const listSearchSchema = z.object({
  q: z.string().optional(),
  page: z.number().int().min(1).optional(),
  pageSize: z.union([z.literal(50), z.literal(100), z.literal(200)]).optional(),
});
export type ListSearch = z.infer<typeof listSearchSchema>;

/**
 * The filter and pager of a list page, read from its URL; changes are written back as a patch of the
 * search, which the route applies with its own typed navigate. A new filter starts at the first page.
 */
export function listControls(
  search: ListSearch,
  setSearch: (patch: Partial<ListSearch>, options: { replace: boolean }) => void,
) {
  const { q = '', page = 1, pageSize = LIMITS.defaultPageSize } = search;
  return {
    q,
    page,
    pageSize,
    setFilter: (text: string) => setSearch({ q: text || undefined, page: undefined }, { replace: true }),
    pager: {
      page,
      pageSize,
      onPage: (next: number) => setSearch({ page: next }, { replace: false }),
      onPageSize: (size: PageSize) => setSearch({ pageSize: size, page: 1 }, { replace: false }),
    },
  };
}

/**
 * For lists the server sends whole: the items whose name holds the filter (ignoring case), and the
 * page of them to show.
 */
export function filterAndPage<T extends { name: string }>(
  items: readonly T[],
  { q, page, pageSize }: { q: string; page: number; pageSize: number },
): { matching: T[]; shown: T[]; totalPages: number } {
  const needle = q.trim().toLocaleLowerCase();
  const matching = items.filter((item) => item.name.toLocaleLowerCase().includes(needle));
  return {
    matching,
    shown: matching.slice((page - 1) * pageSize, page * pageSize),
    totalPages: Math.max(1, Math.ceil(matching.length / pageSize)),
  };
}

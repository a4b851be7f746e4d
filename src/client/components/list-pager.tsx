import { Group, Pagination, Select, Text } from '@mantine/core';
import { LIMITS, type PageSize } from '../../shared/limits';

/** Under a list page's table: how many there are, rows per page (50, 100, 200) and the pages. */
export function ListPager<S extends number = PageSize>({
  count,
  noun,
  page,
  pageSize,
  totalPages,
  onPage,
  onPageSize,
  sizes = LIMITS.pageSizes as readonly number[] as readonly S[],
}: {
  count: number;
  /** e.g. 'table(s)' */
  noun: string;
  page: number;
  pageSize: number;
  totalPages: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: S) => void;
  /** Rows per page offered; lists default to 50, 100, 200 (the Reports page starts at 25). */
  sizes?: readonly S[];
}) {
  if (count === 0) return null;
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {count} {noun}
      </Text>
      <Group gap="sm">
        <Select
          aria-label="Rows per page"
          size="xs"
          w={90}
          data={sizes.map(String)}
          value={String(pageSize)}
          allowDeselect={false}
          onChange={(v) => onPageSize(Number(v) as S)}
        />
        <Pagination size="sm" total={totalPages} value={page} onChange={onPage} />
      </Group>
    </Group>
  );
}

import { Group, Pagination, Select, Text } from '@mantine/core';
import { LIMITS, type PageSize } from '../../shared/limits';

/** Under a list page's table: how many there are, rows per page (50, 100, 200) and the pages. */
export function ListPager({
  count,
  noun,
  page,
  pageSize,
  totalPages,
  onPage,
  onPageSize,
}: {
  count: number;
  /** e.g. 'table(s)' */
  noun: string;
  page: number;
  pageSize: number;
  totalPages: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: PageSize) => void;
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
          data={LIMITS.pageSizes.map(String)}
          value={String(pageSize)}
          allowDeselect={false}
          onChange={(v) => onPageSize(Number(v) as PageSize)}
        />
        <Pagination size="sm" total={totalPages} value={page} onChange={onPage} />
      </Group>
    </Group>
  );
}

import { Group, Pagination, Select, Text } from '@mantine/core';
import { LIMITS } from '../../../shared/limits';
import type { GridPagination } from './types';

interface PaginationBarProps {
  pagination: GridPagination;
  /** Rows shown, and how many come before them (the page on screen, until the next has loaded). */
  shown: number;
  rowOffset: number;
  /** Rows matching the filters, once counted. */
  total: number | undefined;
  /** Whether a page exists after this one (known before the count is). */
  hasMore: boolean;
}

/** Under a paged grid: rows per page (50, 100, 200), which rows these are, and page controls. */
export function PaginationBar({ pagination, shown, rowOffset, total, hasMore }: PaginationBarProps) {
  const { page, pageSize, onChange } = pagination;
  const first = rowOffset + 1;
  // Until the count arrives, offer the pages seen so far and one more when this page was full.
  const pages = total === undefined ? page + (hasMore ? 1 : 0) : Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Group gap={6} wrap="nowrap">
        <Text size="xs" c="dimmed">
          Rows per page
        </Text>
        <Select
          aria-label="Rows per page"
          size="xs"
          w={80}
          data={LIMITS.pageSizes.map(String)}
          value={String(pageSize)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          onChange={(v) => v && onChange({ page: 1, pageSize: Number(v) })}
        />
        <Text size="xs" c="dimmed" ml="xs">
          {shown === 0 ? 'No rows' : `Rows ${first}–${first + shown - 1}${total === undefined ? '' : ` of ${total}`}`}
        </Text>
      </Group>
      <Pagination
        size="sm"
        total={pages}
        value={Math.min(page, pages)}
        onChange={(next) => onChange({ page: next, pageSize })}
        withEdges
        getControlProps={(control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` })}
        getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
      />
    </Group>
  );
}

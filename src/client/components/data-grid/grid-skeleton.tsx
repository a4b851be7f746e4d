import { Group, Skeleton, Stack } from '@mantine/core';
import { GRID } from './constants';

/** Placeholder cells (10 by 10) while the first rows load. */
export function GridSkeleton() {
  return (
    <Stack gap={4} p="xs" aria-busy="true">
      {Array.from({ length: GRID.skeletonRows }, (_, r) => (
        <Group key={r} gap={4} wrap="nowrap">
          {Array.from({ length: GRID.skeletonColumns }, (_, c) => (
            <Skeleton key={c} h={GRID.rowHeight - 8} w={GRID.defaultColumnWidth - 40} />
          ))}
        </Group>
      ))}
    </Stack>
  );
}

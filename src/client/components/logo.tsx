import { Group, Text } from '@mantine/core';

/** The product mark: three rising bars. */
export function Logo({ size = 28, withName = false }: { size?: number; withName?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="var(--mantine-color-blue-6)" />
        <rect x="7" y="17" width="4" height="8" rx="1" fill="#fff" />
        <rect x="14" y="11" width="4" height="14" rx="1" fill="#fff" />
        <rect x="21" y="7" width="4" height="18" rx="1" fill="#fff" />
      </svg>
      {withName && (
        <Text fw={700} size="lg">
          Workspace
        </Text>
      )}
    </Group>
  );
}

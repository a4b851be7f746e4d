import { ActionIcon, Group, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/**
 * A page's top bar: back button, title, a mark beside it (e.g. 'View only') and actions. On a
 * narrow screen the actions wrap under the title instead of running off the page; pass a
 * ResponsiveToolbar as `actions` when there are more than fit on a phone.
 */
export function BreadcrumbBar({
  title,
  actions,
  mark,
  back = true,
}: {
  title: ReactNode;
  actions?: ReactNode;
  mark?: ReactNode;
  back?: boolean;
}) {
  const router = useRouter();
  return (
    <Group justify="space-between" wrap="wrap" mb="lg" gap="sm">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {back && (
          <Tooltip label="Back">
            <ActionIcon variant="subtle" color="gray" aria-label="Back" onClick={() => router.history.back()}>
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        <Title order={2} size="h3" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {mark}
      </Group>
      {actions && (
        <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
          {actions}
        </Group>
      )}
    </Group>
  );
}

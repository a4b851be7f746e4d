import { ActionIcon, Group, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** A page's top bar: back button, title and actions. */
export function BreadcrumbBar({
  title,
  actions,
  back = true,
}: {
  title: ReactNode;
  actions?: ReactNode;
  back?: boolean;
}) {
  const router = useRouter();
  return (
    <Group justify="space-between" wrap="nowrap" mb="lg" gap="sm">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {back && (
          <Tooltip label="Back">
            <ActionIcon variant="subtle" color="gray" aria-label="Back" onClick={() => router.history.back()}>
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        <Title order={2} size="h3" style={{ minWidth: 0 }}>
          {title}
        </Title>
      </Group>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}

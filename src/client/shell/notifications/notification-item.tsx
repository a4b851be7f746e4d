import { Box, Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import type { Notification, NotificationSeverity } from '../../../shared/notifications';
import { formatDateTime, formatRecent } from '../../lib/format';

const SEVERITY: Record<NotificationSeverity, { color: string; icon: typeof IconInfoCircle }> = {
  Info: { color: 'blue', icon: IconInfoCircle },
  Warning: { color: 'yellow', icon: IconAlertTriangle },
  Error: { color: 'red', icon: IconAlertCircle },
};

/** One notification of the bell's list: a button that opens it (marks it read, goes to its target). */
export function NotificationItem({ notification, onOpen }: { notification: Notification; onOpen: () => void }) {
  const { color, icon: Icon } = SEVERITY[notification.severity];
  const unread = notification.readAt === null;
  return (
    <UnstyledButton
      onClick={onOpen}
      data-notification-id={notification.id}
      data-unread={unread || undefined}
      aria-label={`${unread ? 'Unread: ' : ''}${notification.title}`}
      p="xs"
      style={{
        borderRadius: 'var(--mantine-radius-sm)',
        background: unread ? 'var(--mantine-color-blue-light)' : undefined,
        display: 'block',
        width: '100%',
      }}
      className="notification-item"
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon color={color} variant="light" size="md" radius="xl" aria-hidden>
          <Icon size={16} />
        </ThemeIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="nowrap" justify="space-between">
            <Text size="sm" fw={unread ? 700 : 500} truncate>
              {notification.title}
            </Text>
            {unread && (
              <Box
                aria-hidden
                style={{
                  width: 8,
                  height: 8,
                  flex: 'none',
                  borderRadius: 4,
                  background: 'var(--mantine-color-blue-6)',
                }}
              />
            )}
          </Group>
          <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {notification.body}
          </Text>
          <Text size="xs" c="dimmed" title={formatDateTime(notification.createdAt)}>
            {formatRecent(notification.createdAt)}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}

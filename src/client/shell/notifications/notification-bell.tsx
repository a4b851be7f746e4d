import {
  ActionIcon,
  Alert,
  Button,
  Center,
  Divider,
  Group,
  Indicator,
  Loader,
  Pagination,
  Popover,
  Stack,
  Text,
} from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useWindowEvent } from '@mantine/hooks';
import { useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { LIMITS, TIMINGS } from '../../../shared/limits';
import type { Notification } from '../../../shared/notifications';
import { NOTIFICATIONS_READ, RECEIVE_NOTIFICATION } from '../../../shared/notifications';
import { errorMessage } from '../../lib/error-message';
import { useHubEvent } from '../../lib/hub';
import { useNarrow } from '../../lib/use-narrow';
import { trpc } from '../../trpc';
import { NotificationItem } from './notification-item';
import { notificationHref } from './notification-target';

export const NO_NOTIFICATIONS = 'No notifications';
export const MARK_ALL_READ = 'Mark all as read';

/**
 * The header's bell (spec: Notifications): the unread count of the current account, refetched
 * every 60 s and at once when the notifications hub pushes ReceiveNotification;
 * a popover lists them newest first in pages of 5. Opening one marks it read and goes to its target.
 */
export function NotificationBell({ accountId }: { accountId: string }) {
  const [opened, setOpened] = useState(false);
  const [page, setPage] = useState(1);
  const phone = useNarrow('sm');
  const router = useRouter();
  const utils = trpc.useUtils();
  const count = trpc.notifications.count.useQuery(
    { accountId },
    { refetchInterval: TIMINGS.notificationPollMs, staleTime: 0 },
  );
  const list = trpc.notifications.list.useQuery(
    { accountId, page, pageSize: LIMITS.notificationsPageSize },
    { enabled: opened, staleTime: 0 },
  );
  const refresh = () => utils.notifications.invalidate();
  // A new notification is pushed at once (spec: ReceiveNotification refreshes the notification queries).
  useHubEvent('notifications', RECEIVE_NOTIFICATION, () => void refresh());
  // Read in another tab or on another device: this bell's count follows at once.
  useHubEvent('notifications', NOTIFICATIONS_READ, () => void refresh());
  const markRead = trpc.notifications.markRead.useMutation({ onSettled: refresh });
  const markAll = trpc.notifications.markAllRead.useMutation({ onSettled: refresh });
  const unread = count.data?.totalCount ?? 0;
  // Escape closes the list even when focus left it (the pressed 'Mark all as read' turns disabled).
  useWindowEvent('keydown', (event) => {
    if (opened && event.key === 'Escape') setOpened(false);
  });

  const open = (notification: Notification) => {
    if (notification.readAt === null) markRead.mutate({ id: notification.id });
    const href = notificationHref(notification.target);
    setOpened(false);
    if (href) router.history.push(href);
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={phone ? 'calc(100vw - 16px)' : 380}
      shadow="md"
      trapFocus
      returnFocus
      withinPortal
    >
      <Popover.Target>
        <Indicator
          label={unread > 99 ? '99+' : unread}
          disabled={unread === 0}
          size={18}
          offset={6}
          color="red"
          data-testid="notification-count"
        >
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={() => {
              if (!opened) setPage(1);
              setOpened((o) => !o);
            }}
          >
            <IconBell size={20} stroke={1.7} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p="xs" role="dialog" aria-label="Notifications">
        <Stack gap="xs">
          <Group justify="space-between" px={4} wrap="nowrap">
            <Text fw={600} size="sm">
              Notifications
            </Text>
            <Button
              variant="subtle"
              size="compact-xs"
              disabled={unread === 0}
              loading={markAll.isPending}
              onClick={() => markAll.mutate({ accountId })}
            >
              {MARK_ALL_READ}
            </Button>
          </Group>
          <Divider />
          {list.isPending ? (
            <Center py="lg">
              <Loader size="sm" aria-label="Loading notifications" />
            </Center>
          ) : list.isError ? (
            <Alert color="red" title="Could not load notifications">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{errorMessage(list.error)}</Text>
                <Button size="compact-xs" variant="light" color="red" onClick={() => void list.refetch()}>
                  Try again
                </Button>
              </Stack>
            </Alert>
          ) : list.data.data.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" py="lg">
              {NO_NOTIFICATIONS}
            </Text>
          ) : (
            <Stack gap={4} mah="min(60vh, 460px)" style={{ overflowY: 'auto' }}>
              {list.data.data.map((n) => (
                <NotificationItem key={n.id} notification={n} onOpen={() => open(n)} />
              ))}
            </Stack>
          )}
          {list.data && list.data.totalPages > 1 && (
            <Center>
              <Pagination
                size="sm"
                total={list.data.totalPages}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              />
            </Center>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

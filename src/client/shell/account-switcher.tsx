import { Button, Group, Menu, Text } from '@mantine/core';
import { IconBuildingCommunity, IconCheck, IconChevronDown, IconSettings } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { currentAccountOf, useSwitchAccount, type CurrentUser } from '../lib/session';

/** The current account's name, with 'Other accounts' to switch to and 'Manage account'. */
export function AccountSwitcher({ user }: { user: CurrentUser }) {
  const current = currentAccountOf(user);
  const others = user.accounts.filter((a) => a.id !== user.currentAccountId);
  const switchAccount = useSwitchAccount();
  return (
    <Menu position="bottom-start" width={260} shadow="md">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconBuildingCommunity size={18} />}
          rightSection={<IconChevronDown size={14} />}
          loading={switchAccount.isPending}
          aria-label="Account switcher"
          styles={{ label: { maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis' } }}
        >
          {current?.name ?? 'No account'}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {current && (
          <>
            <Menu.Label>Current account</Menu.Label>
            <Group gap={8} px="sm" py={6} wrap="nowrap">
              <IconCheck size={16} color="var(--mantine-color-blue-6)" />
              <Text size="sm" fw={600} truncate>
                {current.name}
              </Text>
            </Group>
            <Menu.Divider />
          </>
        )}
        <Menu.Label>Other accounts</Menu.Label>
        {others.length === 0 && (
          <Menu.Item disabled>
            <Text size="xs" c="dimmed">
              You are not a member of other accounts.
            </Text>
          </Menu.Item>
        )}
        {others.map((account) => (
          <Menu.Item key={account.id} onClick={() => switchAccount.mutate({ accountId: account.id })}>
            <Text size="sm" truncate>
              {account.name}
            </Text>
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item component={Link} to="/settings/account" leftSection={<IconSettings size={16} />}>
          Manage account
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

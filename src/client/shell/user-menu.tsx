import { Avatar, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconLogout, IconUserCog } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { initials } from '../lib/format';
import { useLogout, type CurrentUser } from '../lib/session';

/** The user's initial, opening name, e-mail, 'User settings' and 'Logout'. */
export function UserMenu({ user }: { user: CurrentUser }) {
  const logout = useLogout();
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label="User menu">
          <Avatar color="blue" radius="xl" size={34}>
            {initials(user.name, user.email)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Stack gap={0} px="sm" py={6}>
          <Text size="sm" fw={600} truncate>
            {user.name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user.email}
          </Text>
        </Stack>
        <Menu.Divider />
        <Menu.Item component={Link} to="/settings/user" leftSection={<IconUserCog size={16} />}>
          User settings
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => logout.mutate()}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

import { Divider, NavLink, Stack, Text } from '@mantine/core';
import { IconBuildingCommunity, IconLogout, IconSettings, IconUserCog } from '@tabler/icons-react';
import { useRouter } from '@tanstack/react-router';
import { currentAccountOf, useLogout, useSwitchAccount, type CurrentUser } from '../lib/session';

/**
 * What the header holds on wide screens, inside the burger on phones (the header has no room at
 * 390 px): the account switcher's choices and the user menu's items.
 */
export function MobileUserSection({ user, onNavigate }: { user: CurrentUser; onNavigate: () => void }) {
  const router = useRouter();
  const logout = useLogout();
  const switchAccount = useSwitchAccount();
  const current = currentAccountOf(user);
  const others = user.accounts.filter((a) => a.id !== user.currentAccountId);
  const go = (to: string) => {
    router.history.push(to);
    onNavigate();
  };
  return (
    <Stack gap={2} hiddenFrom="sm" data-testid="mobile-user-section">
      <Stack gap={0} px="sm" py={6}>
        <Text size="sm" fw={600} truncate>
          {user.name}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {user.email}
        </Text>
      </Stack>
      <NavLink
        component="button"
        label={current?.name ?? 'No account'}
        description="Current account"
        leftSection={<IconBuildingCommunity size={18} stroke={1.7} />}
        aria-label="Account switcher"
        childrenOffset={28}
      >
        {others.map((account) => (
          <NavLink
            key={account.id}
            component="button"
            label={account.name}
            onClick={() => switchAccount.mutate({ accountId: account.id })}
          />
        ))}
        <NavLink
          component="button"
          label="Manage account"
          leftSection={<IconSettings size={16} />}
          onClick={() => go('/settings/account')}
        />
      </NavLink>
      <NavLink
        component="button"
        label="User settings"
        leftSection={<IconUserCog size={18} stroke={1.7} />}
        onClick={() => go('/settings/user')}
      />
      <NavLink
        component="button"
        label="Logout"
        color="red"
        active
        variant="subtle"
        leftSection={<IconLogout size={18} stroke={1.7} />}
        onClick={() => logout.mutate()}
      />
      <Divider my="xs" />
    </Stack>
  );
}

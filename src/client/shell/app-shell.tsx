import { AppShell, Badge, Burger, Divider, Group, NavLink, ScrollArea, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCalendarEvent, IconMessageCircle, IconShieldLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { Logo } from '../components/logo';
import { detectEnvironment } from '../lib/environment';
import { isAdmin, type CurrentUser } from '../lib/session';
import { AccountSwitcher } from './account-switcher';
import { ADMIN_NAV, SERVICES_NAV, SETTINGS_NAV } from './nav-items';
import { NavSection } from './nav-section';
import { SupportDialog, type SupportTopic } from './support-dialog';
import { UserMenu } from './user-menu';

/** The signed-in shell: header (logo, search, account switcher, bell, user menu) and sidebar. */
export function WorkspaceShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const [support, setSupport] = useState<SupportTopic | null>(null);
  const environment = detectEnvironment();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 248, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Link to="/" aria-label="Home" style={{ textDecoration: 'none', color: 'inherit' }}>
              <Logo withName />
            </Link>
            {environment !== 'prod' && (
              <Badge variant="light" color={environment === 'dev' ? 'orange' : 'gray'} size="sm">
                {environment}
              </Badge>
            )}
          </Group>
          {/* Slot for the global search box (search issue). */}
          <div data-slot="global-search" style={{ flex: 1 }} />
          <Group gap="sm" wrap="nowrap">
            {/* Slot for the notification bell (notifications issue). */}
            <AccountSwitcher user={user} />
            <div data-slot="notification-bell" />
            <UserMenu user={user} />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm">
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap="sm">
            <NavSection label="Services" items={SERVICES_NAV} onNavigate={close} />
            <NavSection label="Settings" items={SETTINGS_NAV} onNavigate={close} />
            {isAdmin(user) && <NavSection label="Admin" items={ADMIN_NAV} onNavigate={close} />}
          </Stack>
        </AppShell.Section>
        <AppShell.Section>
          <Divider my="xs" />
          <NavLink
            label="Schedule call"
            leftSection={<IconCalendarEvent size={18} stroke={1.7} />}
            onClick={() => setSupport('call')}
          />
          <NavLink
            label="Message support"
            leftSection={<IconMessageCircle size={18} stroke={1.7} />}
            onClick={() => setSupport('message')}
          />
          <NavLink
            component="a"
            href="/privacy-policy.html"
            target="_blank"
            label="Privacy policy"
            leftSection={<IconShieldLock size={18} stroke={1.7} />}
          />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>{children}</AppShell.Main>
      <SupportDialog topic={support} onClose={() => setSupport(null)} />
    </AppShell>
  );
}

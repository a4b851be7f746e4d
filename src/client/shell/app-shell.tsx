import { AppShell, Badge, Box, Burger, Divider, Group, NavLink, ScrollArea, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCalendarEvent, IconMessageCircle, IconShieldLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { BugReportWidget } from '../components/bug-report-widget';
import { Logo } from '../components/logo';
import { PageFrame } from '../components/page-frame';
import { MAIN_ID, SkipToContent } from '../components/skip-to-content';
import { detectEnvironment } from '../lib/environment';
import { isAdmin, type CurrentUser } from '../lib/session';
import { useNarrow } from '../lib/use-narrow';
import { AccountSwitcher } from './account-switcher';
import { GlobalSearch } from './global-search/global-search';
import { MobileUserSection } from './mobile-user-section';
import { ADMIN_NAV, SERVICES_NAV, SETTINGS_NAV } from './nav-items';
import { NavSection } from './nav-section';
import { NotificationBell } from './notifications/notification-bell';
import { SupportDialog, type SupportTopic } from './support-dialog';
import { UserMenu } from './user-menu';

/**
 * The signed-in shell: header (logo, search, account switcher, bell, bug report, user menu) and
 * sidebar. Below the 'sm' breakpoint the header keeps the burger, logo and bug report; the account
 * switcher and user menu move into the burger's panel.
 */
export function WorkspaceShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  // On a phone the closed panel only slides off-screen: keep its links out of the Tab order too.
  const phone = useNarrow('sm');
  const [support, setSupport] = useState<SupportTopic | null>(null);
  const environment = detectEnvironment();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 248, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <SkipToContent />
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
              aria-expanded={opened}
            />
            <Link to="/" aria-label="Home" style={{ textDecoration: 'none', color: 'inherit' }}>
              <Logo withName />
            </Link>
            {environment !== 'prod' && (
              // Never squeezed to "LO…" by the header's other items on a phone.
              <Badge
                variant="light"
                color={environment === 'dev' ? 'orange' : 'gray'}
                size="sm"
                style={{ flexShrink: 0 }}
              >
                {environment}
              </Badge>
            )}
          </Group>
          <Group data-slot="global-search" style={{ flex: 1, minWidth: 0 }} justify="center" wrap="nowrap">
            {user.currentAccountId && <GlobalSearch />}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Box visibleFrom="sm">
              <AccountSwitcher user={user} />
            </Box>
            {user.currentAccountId && <NotificationBell accountId={user.currentAccountId} />}
            <BugReportWidget placement="header" />
            <Box visibleFrom="sm">
              <UserMenu user={user} />
            </Box>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" inert={phone && !opened}>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap="sm">
            <MobileUserSection user={user} onNavigate={close} />
            <NavSection label="Services" items={SERVICES_NAV} onNavigate={close} />
            <NavSection label="Settings" items={SETTINGS_NAV} onNavigate={close} />
            {isAdmin(user) && <NavSection label="Admin" items={ADMIN_NAV} onNavigate={close} />}
          </Stack>
        </AppShell.Section>
        <AppShell.Section>
          <Divider my="xs" />
          {/* Buttons, not href-less links: those are skipped by Tab. */}
          <NavLink
            component="button"
            label="Schedule call"
            leftSection={<IconCalendarEvent size={18} stroke={1.7} />}
            onClick={() => setSupport('call')}
          />
          <NavLink
            component="button"
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

      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <PageFrame>{children}</PageFrame>
      </AppShell.Main>
      <SupportDialog topic={support} onClose={() => setSupport(null)} />
    </AppShell>
  );
}

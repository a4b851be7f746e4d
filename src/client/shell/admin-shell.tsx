import { AppShell, Badge, Burger, Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { BugReportWidget } from '../components/bug-report-widget';
import { Logo } from '../components/logo';
import { PageFrame } from '../components/page-frame';
import { MAIN_ID, SkipToContent } from '../components/skip-to-content';
import type { CurrentUser } from '../lib/session';
import { useNarrow } from '../lib/use-narrow';
import { ADMIN_NAV } from './nav-items';
import { NavSection } from './nav-section';
import { UserMenu } from './user-menu';

/**
 * The separate shell of the admin routes (spec §2: no bell, no account switcher). Every admin page,
 * its not-found page included, is drawn inside this one shell and never inside the workspace's.
 */
export function AdminShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  // On a phone the closed panel only slides off-screen: keep its links out of the Tab order too.
  const phone = useNarrow('sm');
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
            <Link to="/admin" aria-label="Admin home" style={{ textDecoration: 'none', color: 'inherit' }}>
              <Logo withName />
            </Link>
            {/* The mark of the admin area keeps its word at 390 px too. */}
            <Badge color="grape" variant="light" style={{ flexShrink: 0 }}>
              Admin
            </Badge>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Button component={Link} to="/" variant="subtle" leftSection={<IconArrowLeft size={16} />} visibleFrom="sm">
              Back to workspace
            </Button>
            <BugReportWidget placement="header" />
            <UserMenu user={user} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" inert={phone && !opened}>
        <Stack gap="sm">
          <NavSection label="Admin" items={ADMIN_NAV} onNavigate={close} />
          <Button
            component={Link}
            to="/"
            variant="subtle"
            justify="flex-start"
            leftSection={<IconArrowLeft size={16} />}
            hiddenFrom="sm"
            onClick={close}
          >
            Back to workspace
          </Button>
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <PageFrame>{children}</PageFrame>
      </AppShell.Main>
    </AppShell>
  );
}

import { AppShell, Badge, Button, Group, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Logo } from '../components/logo';
import type { CurrentUser } from '../lib/session';
import { ADMIN_NAV } from './nav-items';
import { NavSection } from './nav-section';
import { UserMenu } from './user-menu';

/** The separate shell of the admin routes (no bell, no account switcher). */
export function AdminShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 248, breakpoint: 'sm' }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Logo withName />
            <Badge color="grape" variant="light">
              Admin
            </Badge>
          </Group>
          <Group gap="sm">
            <Button component={Link} to="/" variant="subtle" leftSection={<IconArrowLeft size={16} />}>
              Back to workspace
            </Button>
            <UserMenu user={user} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <Stack gap="sm">
          <NavSection label="Admin" items={ADMIN_NAV} />
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}

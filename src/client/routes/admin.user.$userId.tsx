import { Anchor, Badge, Button, Group, Paper, Stack, Switch, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLogout } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { ADMIN_MESSAGES, type AdminUserDetail } from '../../shared/admin';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ConfirmDialog } from '../components/confirm-dialog';
import { EmptyRow } from '../components/empty-row';
import { formatDateTime, formatRecent } from '../lib/format';
import { useMe } from '../lib/session';
import { Section } from './-components/section';
import { trpc } from '../trpc';
import { AdminPage } from './-admin/admin-page';
import { RoleBadges } from './-admin/role-badges';

export const Route = createFileRoute('/admin/user/$userId')({
  component: AdminUserPage,
});

function AdminUserPage() {
  const { userId } = Route.useParams();
  const user = trpc.admin.user.useQuery({ userId }, { retry: false });
  return (
    <AdminPage loading={user.isPending} error={user.error} errorTitle="Could not load this user">
      {user.data && <UserDetail user={user.data} />}
    </AdminPage>
  );
}

function UserDetail({ user }: { user: AdminUserDetail }) {
  const { data: me } = useMe();
  const self = me?.id === user.id;
  return (
    <>
      <BreadcrumbBar
        title={
          <Group gap="sm" component="span">
            <span>{user.name || user.email}</span>
            {user.isAdmin && (
              <Badge color="grape" variant="light">
                Admin
              </Badge>
            )}
            {self && <Badge variant="outline">You</Badge>}
          </Group>
        }
      />
      <Paper p="lg">
        <Group gap="xl" wrap="wrap">
          <Fact label="E-mail" value={user.email} />
          <Fact label="Global roles" value={<RoleBadges roles={user.roles} />} />
          <Fact label="Joined" value={formatDateTime(user.createdAt)} />
          <Fact label="Last login" value={formatRecent(user.lastLoginAt)} />
        </Group>
      </Paper>
      <AdminRoleSection user={user} self={self} />
      <Section title="Accounts" description="The accounts this user is a member of, with their roles there.">
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Accounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Account</Table.Th>
                <Table.Th>Roles</Table.Th>
                <Table.Th>Last login</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {user.accounts.length === 0 && <EmptyRow cols={3} text="Not a member of any account." />}
              {user.accounts.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Anchor
                      renderRoot={(props) => (
                        <Link {...props} to="/admin/account/$accountId" params={{ accountId: a.id }} />
                      )}
                    >
                      {a.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <RoleBadges roles={a.roles} member />
                  </Table.Td>
                  <Table.Td>{formatRecent(a.lastLoginAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Section>
      <SessionsSection user={user} self={self} />
    </>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      {typeof value === 'string' ? <Text size="sm">{value || '—'}</Text> : value}
    </Stack>
  );
}

/** The global admin role: granted or taken with a confirmation; the server keeps the last admin. */
function AdminRoleSection({ user, self }: { user: AdminUserDetail; self: boolean }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const setAdmin = trpc.admin.setGlobalAdmin.useMutation({
    onSuccess: async (next) => {
      setConfirming(false);
      utils.admin.user.setData({ userId: user.id }, next);
      await utils.admin.searchUsers.invalidate();
      notifications.show({
        color: 'green',
        message: next.isAdmin ? `${user.email} is now an admin.` : `${user.email} is no longer an admin.`,
      });
      // Without the role this page is no longer theirs to see.
      if (self && !next.isAdmin) {
        await utils.auth.me.invalidate();
        await navigate({ to: '/' });
      }
    },
    onError: () => setConfirming(false),
  });
  const giving = !user.isAdmin;
  return (
    <Section
      title="Global admin role"
      description="Admins see the admin area: every user, account and integration definition of this installation."
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Switch
          label="Admin"
          checked={user.isAdmin}
          onChange={() => setConfirming(true)}
          disabled={setAdmin.isPending}
          aria-describedby="admin-role-hint"
        />
        <Text id="admin-role-hint" size="sm" c="dimmed">
          {self && user.isAdmin
            ? 'You can remove your own role only while another admin remains.'
            : 'There is always at least one admin.'}
        </Text>
      </Group>
      <ConfirmDialog
        opened={confirming}
        danger={!giving}
        loading={setAdmin.isPending}
        message={
          giving
            ? `Make ${user.email} an admin of this installation?`
            : self
              ? 'Remove your own admin role? You will leave the admin area at once.'
              : `Remove the admin role from ${user.email}?`
        }
        onCancel={() => setConfirming(false)}
        onConfirm={() => setAdmin.mutate({ userId: user.id, admin: giving })}
      />
    </Section>
  );
}

const sessionCount = (n: number) => (n === 1 ? 'their only session' : `all ${n} sessions`);

/** Live sessions, and "Sign out everywhere" (every session revoked, after a confirmation). */
function SessionsSection({ user, self }: { user: AdminUserDetail; self: boolean }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const signOut = trpc.admin.signOutEverywhere.useMutation({
    onSuccess: async ({ revoked }) => {
      setConfirming(false);
      notifications.show({ color: 'green', message: ADMIN_MESSAGES.signedOutEverywhere(revoked) });
      if (self) {
        // This browser's session was one of them.
        utils.auth.me.setData(undefined, null);
        await navigate({ to: '/login', search: { returnUrl: window.location.pathname } });
        return;
      }
      await utils.admin.user.invalidate({ userId: user.id });
    },
    onError: () => setConfirming(false),
  });
  const none = user.sessions.length === 0;
  return (
    <Section
      title="Sessions"
      description="Browsers signed in as this user. Signing out everywhere ends them all; the user can sign in again."
      actions={
        <Tooltip label="No session to end" disabled={!none}>
          <Button
            color="red"
            variant="light"
            leftSection={<IconLogout size={16} />}
            disabled={none}
            onClick={() => setConfirming(true)}
          >
            Sign out everywhere
          </Button>
        </Tooltip>
      }
    >
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label="Sessions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Signed in</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Browser</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {none && <EmptyRow cols={4} text="No active sessions." />}
            {user.sessions.map((s, i) => (
              <Table.Tr key={`${s.createdAt}-${i}`}>
                <Table.Td>{formatDateTime(s.createdAt)}</Table.Td>
                <Table.Td>{formatRecent(s.lastSeenAt)}</Table.Td>
                <Table.Td>{formatDateTime(s.expiresAt)}</Table.Td>
                <Table.Td>
                  <Text size="sm" c={s.userAgent ? undefined : 'dimmed'} lineClamp={2} title={s.userAgent ?? undefined}>
                    {s.userAgent ?? 'Not recorded'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={confirming}
        danger
        loading={signOut.isPending}
        message={
          self
            ? `Sign yourself out of ${sessionCount(user.sessions.length)}, this browser included?`
            : `Sign ${user.email} out of ${sessionCount(user.sessions.length)}? Each browser will have to sign in again.`
        }
        onCancel={() => setConfirming(false)}
        onConfirm={() => signOut.mutate({ userId: user.id })}
      />
    </Section>
  );
}

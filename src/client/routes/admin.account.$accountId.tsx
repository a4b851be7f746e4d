import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { Link, createFileRoute } from '@tanstack/react-router';
import type { AdminAccountDetail } from '../../shared/admin';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { EmptyRow } from '../components/empty-row';
import { formatDate, formatDateTime, formatRecent } from '../lib/format';
import { trpc } from '../trpc';
import { Section } from './-components/section';
import { AdminPage } from './-admin/admin-page';
import { formatBytes } from './-admin/format-bytes';
import { RoleBadges } from './-admin/role-badges';

export const Route = createFileRoute('/admin/account/$accountId')({
  component: AdminAccountPage,
});

function AdminAccountPage() {
  const { accountId } = Route.useParams();
  const account = trpc.admin.account.useQuery({ accountId }, { retry: false });
  return (
    <AdminPage loading={account.isPending} error={account.error} errorTitle="Could not load this account">
      {account.data && <AccountDetail account={account.data} />}
    </AdminPage>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper p="md">
      <Stack gap={2}>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          {label}
        </Text>
        <Text fw={600} size="lg" aria-label={label}>
          {value}
        </Text>
        {hint && (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function AccountDetail({ account }: { account: AdminAccountDetail }) {
  return (
    <>
      <BreadcrumbBar title={account.name} />
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Stat label="Warehouse size" value={formatBytes(account.warehouseBytes)} hint="The account's folder on disk" />
        <Stat
          label="Last activity"
          value={formatRecent(account.lastActivityAt)}
          hint={account.lastActivityAt ? formatDateTime(account.lastActivityAt) : 'No sign-in or change yet'}
        />
        <Stat label="Members" value={String(account.members.length)} />
        <Stat label="Created" value={formatDate(account.createdAt)} hint={account.id} />
      </SimpleGrid>
      <Section title="Members">
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Members">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Roles</Table.Th>
                <Table.Th>Last login</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {account.members.length === 0 && <EmptyRow cols={4} text="No members." />}
              {account.members.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>
                    <Anchor
                      renderRoot={(props) => <Link {...props} to="/admin/user/$userId" params={{ userId: m.id }} />}
                    >
                      {m.name || m.email}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{m.email}</Table.Td>
                  <Table.Td>
                    <RoleBadges roles={m.roles} member />
                  </Table.Td>
                  <Table.Td>{formatRecent(m.lastLoginAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Section>
      <Section title="Integrations">
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Integrations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Syncing</Table.Th>
                <Table.Th>Latest run</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {account.integrations.length === 0 && <EmptyRow cols={5} text="No integrations added yet." />}
              {account.integrations.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.name}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <span>{i.definitionName}</span>
                      <Badge variant="outline" color="gray" size="sm">
                        {i.type}
                      </Badge>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={i.syncStatus === 'Active' ? 'green' : 'gray'}>
                      {i.syncStatus}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatRecent(i.lastRunAt)}</Table.Td>
                  <Table.Td>{formatDate(i.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Section>
    </>
  );
}

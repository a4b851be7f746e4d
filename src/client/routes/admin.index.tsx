import { Badge, Loader, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { EmptyRow } from '../components/empty-row';
import { formatDate, formatRecent } from '../lib/format';
import { trpc } from '../trpc';

export const Route = createFileRoute('/admin/')({
  validateSearch: z.object({ q: z.string().optional(), kind: z.enum(['users', 'accounts']).optional() }),
  component: AdminSearchPage,
});

const SEARCH_DEBOUNCE_MS = 300;

function AdminSearchPage() {
  const { q = '', kind = 'users' } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const [query] = useDebouncedValue(q, SEARCH_DEBOUNCE_MS);
  const users = trpc.admin.searchUsers.useQuery({ query }, { enabled: kind === 'users' });
  const accounts = trpc.admin.searchAccounts.useQuery({ query }, { enabled: kind === 'accounts' });
  const active = kind === 'users' ? users : accounts;

  return (
    <Stack maw={1000}>
      <BreadcrumbBar title="Search users and accounts" back={false} />
      <SegmentedControl
        w={260}
        value={kind}
        data={[
          { value: 'users', label: 'Users' },
          { value: 'accounts', label: 'Accounts' },
        ]}
        onChange={(value) => void navigate({ search: { q, kind: value as 'users' | 'accounts' }, replace: true })}
      />
      <TextInput
        leftSection={<IconSearch size={16} />}
        rightSection={active.isFetching ? <Loader size={14} /> : null}
        placeholder={kind === 'users' ? 'Search by e-mail or name' : 'Search by account name or id'}
        value={q}
        onChange={(e) => void navigate({ search: { q: e.currentTarget.value, kind }, replace: true })}
        autoFocus
      />
      {kind === 'users' ? (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th>Accounts</Table.Th>
              <Table.Th>Last login</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.data?.length === 0 && <EmptyRow cols={5} text="No users found." />}
            {users.data?.map((u) => (
              <Table.Tr key={u.id}>
                <Table.Td>{u.name}</Table.Td>
                <Table.Td>{u.email}</Table.Td>
                <Table.Td>
                  {u.roles.map((r) => (
                    <Badge key={r} variant="light" mr={4} color={r === 'admin' ? 'grape' : 'gray'}>
                      {r}
                    </Badge>
                  ))}
                </Table.Td>
                <Table.Td>{u.accountCount}</Table.Td>
                <Table.Td>{formatRecent(u.lastLoginAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th>Id</Table.Th>
              <Table.Th>Members</Table.Th>
              <Table.Th>Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.data?.length === 0 && <EmptyRow cols={4} text="No accounts found." />}
            {accounts.data?.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>{a.name}</Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace" c="dimmed">
                    {a.id}
                  </Text>
                </Table.Td>
                <Table.Td>{a.memberCount}</Table.Td>
                <Table.Td>{formatDate(a.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

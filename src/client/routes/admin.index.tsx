import { Anchor, Loader, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import type { KeyboardEvent } from 'react';
import { z } from 'zod';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { EmptyRow } from '../components/empty-row';
import { formatDate, formatRecent } from '../lib/format';
import { trpc } from '../trpc';
import { ADMIN_PAGE_WIDTH } from './-admin/admin-page';
import { RoleBadges } from './-admin/role-badges';

export const Route = createFileRoute('/admin/')({
  validateSearch: z.object({ q: z.string().optional(), kind: z.enum(['users', 'accounts']).optional() }),
  component: AdminSearchPage,
});

const SEARCH_DEBOUNCE_MS = 300;

/**
 * A result row opens its detail page: a click anywhere on it, or Enter on the focused row (each
 * row is one tab stop; its name is also a link, for opening in a new tab).
 */
function openOnEnter(open: () => void) {
  return (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key === 'Enter' && event.target === event.currentTarget) {
      event.preventDefault();
      open();
    }
  };
}

function AdminSearchPage() {
  const { q = '', kind = 'users' } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const [query] = useDebouncedValue(q, SEARCH_DEBOUNCE_MS);
  const users = trpc.admin.searchUsers.useQuery({ query }, { enabled: kind === 'users' });
  const accounts = trpc.admin.searchAccounts.useQuery({ query }, { enabled: kind === 'accounts' });
  const active = kind === 'users' ? users : accounts;
  const openUser = (userId: string) => void navigate({ to: '/admin/user/$userId', params: { userId } });
  const openAccount = (accountId: string) => void navigate({ to: '/admin/account/$accountId', params: { accountId } });

  return (
    <Stack maw={ADMIN_PAGE_WIDTH}>
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
        <Table.ScrollContainer minWidth={users.data?.length === 0 ? 0 : 640}>
          <Table highlightOnHover>
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
                <Table.Tr
                  key={u.id}
                  tabIndex={0}
                  aria-label={`Open user ${u.email}`}
                  className="admin-result-row"
                  onClick={() => openUser(u.id)}
                  onKeyDown={openOnEnter(() => openUser(u.id))}
                >
                  <Table.Td>
                    <Anchor
                      renderRoot={(props) => <Link {...props} to="/admin/user/$userId" params={{ userId: u.id }} />}
                      tabIndex={-1}
                      onClick={(e) => e.stopPropagation()}
                    >
                      {u.name || u.email}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td>
                    <RoleBadges roles={u.roles} />
                  </Table.Td>
                  <Table.Td>{u.accountCount}</Table.Td>
                  <Table.Td>{formatRecent(u.lastLoginAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Table.ScrollContainer minWidth={accounts.data?.length === 0 ? 0 : 560}>
          <Table highlightOnHover>
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
                <Table.Tr
                  key={a.id}
                  tabIndex={0}
                  aria-label={`Open account ${a.name}`}
                  className="admin-result-row"
                  onClick={() => openAccount(a.id)}
                  onKeyDown={openOnEnter(() => openAccount(a.id))}
                >
                  <Table.Td>
                    <Anchor
                      renderRoot={(props) => (
                        <Link {...props} to="/admin/account/$accountId" params={{ accountId: a.id }} />
                      )}
                      tabIndex={-1}
                      onClick={(e) => e.stopPropagation()}
                    >
                      {a.name}
                    </Anchor>
                  </Table.Td>
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
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

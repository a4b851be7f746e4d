import { Anchor, Button, Paper, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { LIMITS } from '../../shared/limits';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ListPager } from '../components/list-pager';
import { EmptyRow } from '../components/empty-row';
import { formatDateTime, formatRecent } from '../lib/format';
import { trpc } from '../trpc';

export const Route = createFileRoute('/_app/tables/')({
  validateSearch: z.object({
    q: z.string().optional(),
    page: z.number().int().min(1).optional(),
    pageSize: z.union([z.literal(50), z.literal(100), z.literal(200)]).optional(),
  }),
  component: TablesPage,
});

const FILTER_DEBOUNCE_MS = 300;

function TablesPage() {
  const { q = '', page = 1, pageSize = LIMITS.defaultPageSize } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const [query] = useDebouncedValue(q, FILTER_DEBOUNCE_MS);
  const list = trpc.staticTables.list.useQuery({ query, page, pageSize }, { placeholderData: (previous) => previous });
  const create = trpc.staticTables.createBlank.useMutation({
    onSuccess: ({ id }) => navigate({ to: '/tables/$id', params: { id } }),
  });
  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => create.mutate()} loading={create.isPending}>
      Add a table
    </Button>
  );

  return (
    <Stack maw={1100}>
      <BreadcrumbBar title="Tables" back={false} actions={addButton} />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Filter by name"
        aria-label="Filter by name"
        w={320}
        value={q}
        onChange={(e) => void navigate({ search: { q: e.currentTarget.value || undefined, pageSize }, replace: true })}
      />
      <Paper>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th w={110}>Columns</Table.Th>
              <Table.Th w={110}>Rows</Table.Th>
              <Table.Th w={200}>Last modified</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending &&
              Array.from({ length: 3 }, (_, i) => (
                <Table.Tr key={i}>
                  <Table.Td colSpan={4}>
                    <Skeleton h={18} />
                  </Table.Td>
                </Table.Tr>
              ))}
            {list.data?.data.length === 0 && <EmptyRow cols={4} text="No tables found." />}
            {list.data?.data.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>
                  <Anchor fw={500} renderRoot={(props) => <Link {...props} to="/tables/$id" params={{ id: t.id }} />}>
                    {t.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{t.columnCount}</Table.Td>
                <Table.Td>{t.rowCount.toLocaleString()}</Table.Td>
                <Table.Td>
                  <Text size="sm" title={formatDateTime(t.modifiedAt)}>
                    {formatRecent(t.modifiedAt)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <ListPager
        count={list.data?.count ?? 0}
        noun="table(s)"
        page={page}
        pageSize={pageSize}
        totalPages={list.data?.totalPages ?? 1}
        onPage={(p) => void navigate({ search: (s) => ({ ...s, page: p }) })}
        onPageSize={(size) => void navigate({ search: (s) => ({ ...s, pageSize: size, page: 1 }) })}
      />
    </Stack>
  );
}

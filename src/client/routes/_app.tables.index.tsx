import { Anchor, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ListPager } from '../components/list-pager';
import { ListFilter, ListTable } from '../components/list-table';
import { ResponsiveToolbar } from '../components/responsive-toolbar';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { useAccess } from '../lib/use-access';
import { formatDateTime, formatRecent } from '../lib/format';
import { listControls, listSearchSchema } from '../lib/list-search';
import { trpc } from '../trpc';

export const Route = createFileRoute('/_app/tables/')({
  validateSearch: listSearchSchema,
  component: TablesPage,
});

const COLUMNS = [
  { label: 'Name' },
  { label: 'Columns', width: 110 },
  { label: 'Rows', width: 110 },
  { label: 'Last modified', width: 200 },
];

const FILTER_DEBOUNCE_MS = 300;

function TablesPage() {
  const navigate = useNavigate({ from: Route.fullPath });
  const controls = listControls(Route.useSearch(), (patch, { replace }) =>
    navigate({ search: (s) => ({ ...s, ...patch }), replace }),
  );
  const { page, pageSize } = controls;
  const [query] = useDebouncedValue(controls.q, FILTER_DEBOUNCE_MS);
  const list = trpc.staticTables.list.useQuery({ query, page, pageSize }, { placeholderData: (previous) => previous });
  const create = trpc.staticTables.createBlank.useMutation({
    onSuccess: ({ id }) => navigate({ to: '/tables/$id', params: { id } }),
  });
  const access = useAccess();
  // A read_only member sees the list in view mode: no create control, the 'View only' mark.
  const toolbar = access.canWrite && (
    <ResponsiveToolbar
      size="sm"
      actions={[
        {
          key: 'add',
          label: 'Add a table',
          icon: <IconPlus size={16} />,
          variant: 'filled',
          pinned: true,
          loading: create.isPending,
          onClick: () => create.mutate(),
        },
      ]}
    />
  );

  return (
    <Stack>
      <BreadcrumbBar
        title="Tables"
        back={false}
        mark={!access.loading && !access.canWrite && <ViewOnlyBadge />}
        actions={toolbar}
      />
      <ListFilter
        label="Filter by name"
        placeholder="Filter by name"
        value={controls.q}
        onChange={controls.setFilter}
      />
      <ListTable columns={COLUMNS} list={list} empty={list.data?.data.length === 0 && 'No tables found.'}>
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
      </ListTable>
      <ListPager
        {...controls.pager}
        count={list.data?.count ?? 0}
        noun="table(s)"
        totalPages={list.data?.totalPages ?? 1}
      />
    </Stack>
  );
}

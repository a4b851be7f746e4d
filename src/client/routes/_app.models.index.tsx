import { ActionIcon, Anchor, Badge, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { ModelListItem } from '../../shared/models';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ListPager } from '../components/list-pager';
import { ListFilter, ListTable } from '../components/list-table';
import { ResponsiveToolbar } from '../components/responsive-toolbar';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { useAccess } from '../lib/use-access';
import { errorMessage } from '../lib/error-message';
import { filterAndPage, listControls, listSearchSchema } from '../lib/list-search';
import { trpc } from '../trpc';
import { NameDialog } from './-models/name-dialog';
import { StatusBadge } from './-models/status-badge';

export const Route = createFileRoute('/_app/models/')({
  validateSearch: listSearchSchema,
  component: ModelsPage,
});

const COLUMNS = [
  { label: 'Name' },
  { label: 'Sources' },
  { label: 'Version', width: 90 },
  { label: 'Unpublished changes', width: 170 },
  { label: 'Status', width: 130 },
  { width: 60 },
];

function ModelsPage() {
  const navigate = useNavigate({ from: Route.fullPath });
  const controls = listControls(Route.useSearch(), (patch, { replace }) =>
    navigate({ search: (s) => ({ ...s, ...patch }), replace }),
  );
  const utils = trpc.useUtils();
  const list = trpc.models.list.useQuery();
  const [creating, setCreating] = useState(false);
  const [duplicating, setDuplicating] = useState<ModelListItem | null>(null);
  const open = (id: string) => navigate({ to: '/models/$id', params: { id } });
  const create = trpc.models.create.useMutation({
    onSuccess: async (model) => {
      await utils.models.list.invalidate();
      await open(model.id);
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const duplicate = trpc.models.duplicate.useMutation({
    onSuccess: async () => {
      setDuplicating(null);
      await utils.models.list.invalidate();
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'Failed to duplicate model', message: errorMessage(error) }),
  });

  const { matching, shown, totalPages } = filterAndPage(list.data ?? [], controls);
  const access = useAccess();
  // A read_only member sees the list in view mode: no Add or Duplicate, the 'View only' mark.
  const toolbar = access.canWrite && (
    <ResponsiveToolbar
      size="sm"
      actions={[
        {
          key: 'add',
          label: 'Add model',
          icon: <IconPlus size={16} />,
          variant: 'filled',
          pinned: true,
          onClick: () => setCreating(true),
        },
      ]}
    />
  );

  return (
    <Stack>
      <BreadcrumbBar
        title="Models"
        back={false}
        mark={!access.loading && !access.canWrite && <ViewOnlyBadge />}
        actions={toolbar}
      />
      <ListFilter
        label="Filter models"
        placeholder="Filter models..."
        value={controls.q}
        onChange={controls.setFilter}
      />
      <ListTable
        columns={COLUMNS}
        highlightOnHover
        list={list}
        empty={
          list.data &&
          matching.length === 0 &&
          (list.data.length === 0 ? 'No models added yet.' : 'No models match the filter.')
        }
      >
        {shown.map((m) => (
          <Table.Tr key={m.id}>
            <Table.Td>
              <Anchor fw={500} renderRoot={(props) => <Link {...props} to="/models/$id" params={{ id: m.id }} />}>
                {m.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Group gap={4}>
                {m.sources.length === 0 && (
                  <Text size="sm" c="dimmed">
                    None yet
                  </Text>
                )}
                {m.sources.map((s) => (
                  <Badge key={`${s.sourceType}:${s.sourceId}`} variant="light" color="gray" tt="none">
                    {s.name}
                  </Badge>
                ))}
              </Group>
            </Table.Td>
            <Table.Td>{m.versionNumber === null ? '-' : `v${m.versionNumber}`}</Table.Td>
            <Table.Td>{m.hasUnpublishedChanges ? 'Yes' : 'No'}</Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <StatusBadge status={m.status} />
                {m.isPublishing && <Loader size={12} aria-label="Publishing" />}
              </Group>
            </Table.Td>
            <Table.Td>
              {access.canWrite && (
                <Tooltip label="Duplicate">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={`Duplicate ${m.name}`}
                    onClick={() => setDuplicating(m)}
                  >
                    <IconCopy size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <ListPager {...controls.pager} count={matching.length} noun="model(s)" totalPages={totalPages} />
      <NameDialog
        opened={creating}
        title="Create new model"
        initialName=""
        submitLabel="Create"
        loading={create.isPending}
        onClose={() => setCreating(false)}
        onSubmit={(name) => create.mutate({ name })}
      />
      <NameDialog
        opened={duplicating !== null}
        title="Duplicate Model"
        initialName={duplicating ? `${duplicating.name} - Copy` : ''}
        submitLabel="Duplicate"
        loading={duplicate.isPending}
        onClose={() => setDuplicating(null)}
        onSubmit={(name) => duplicating && duplicate.mutate({ id: duplicating.id, name })}
      />
    </Stack>
  );
}

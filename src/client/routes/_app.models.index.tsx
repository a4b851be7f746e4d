import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { LIMITS } from '../../shared/limits';
import type { ModelListItem } from '../../shared/models';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ListPager } from '../components/list-pager';
import { EmptyRow } from '../components/empty-row';
import { errorMessage } from '../lib/error-message';
import { trpc } from '../trpc';
import { NameDialog } from './-models/name-dialog';
import { StatusBadge } from './-models/status-badge';

export const Route = createFileRoute('/_app/models/')({
  validateSearch: z.object({
    q: z.string().optional(),
    page: z.number().int().min(1).optional(),
    pageSize: z.union([z.literal(50), z.literal(100), z.literal(200)]).optional(),
  }),
  component: ModelsPage,
});

function ModelsPage() {
  const { q = '', page = 1, pageSize = LIMITS.defaultPageSize } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
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

  const needle = q.trim().toLocaleLowerCase();
  const all = (list.data ?? []).filter((m) => m.name.toLocaleLowerCase().includes(needle));
  const totalPages = Math.max(1, Math.ceil(all.length / pageSize));
  const shown = all.slice((page - 1) * pageSize, page * pageSize);
  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      Add model
    </Button>
  );

  return (
    <Stack maw={1200}>
      <BreadcrumbBar title="Models" back={false} actions={addButton} />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Filter models..."
        aria-label="Filter models"
        w={320}
        value={q}
        onChange={(e) => void navigate({ search: { q: e.currentTarget.value || undefined, pageSize }, replace: true })}
      />
      <Paper>
        <Table highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Sources</Table.Th>
              <Table.Th w={90}>Version</Table.Th>
              <Table.Th w={170}>Unpublished changes</Table.Th>
              <Table.Th w={130}>Status</Table.Th>
              <Table.Th w={60} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending &&
              Array.from({ length: 3 }, (_, i) => (
                <Table.Tr key={i}>
                  <Table.Td colSpan={6}>
                    <Skeleton h={18} />
                  </Table.Td>
                </Table.Tr>
              ))}
            {list.isError && <EmptyRow cols={6} text={errorMessage(list.error)} />}
            {list.data && all.length === 0 && (
              <EmptyRow
                cols={6}
                text={list.data.length === 0 ? 'No models added yet.' : 'No models match the filter.'}
              />
            )}
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
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <ListPager
        count={all.length}
        noun="model(s)"
        page={page}
        pageSize={pageSize}
        totalPages={totalPages}
        onPage={(p) => void navigate({ search: (s) => ({ ...s, page: p }) })}
        onPageSize={(size) => void navigate({ search: (s) => ({ ...s, pageSize: size, page: 1 }) })}
      />
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

import { Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { LIMITS } from '../../shared/limits';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { EmptyRow } from '../components/empty-row';
import { ListPager } from '../components/list-pager';
import { errorMessage } from '../lib/error-message';
import { formatRecent } from '../lib/format';
import { trpc } from '../trpc';
import { AddIntegrationPanel } from './-integrations/add-integration-panel';
import { RunStatusBadge } from './-integrations/run-status';
import { SyncIcon } from './-integrations/sync-icon';

export const Route = createFileRoute('/_app/integrations/')({
  validateSearch: z.object({
    q: z.string().optional(),
    page: z.number().int().min(1).optional(),
    pageSize: z.union([z.literal(50), z.literal(100), z.literal(200)]).optional(),
    /** Opens the add drawer, e.g. on 'Back to selection'. */
    add: z.boolean().optional(),
  }),
  component: IntegrationsPage,
});

/** Spec §9: the integrations list is retried 3 times. */
const LIST_RETRIES = 3;

function IntegrationsPage() {
  const { q = '', page = 1, pageSize = LIMITS.defaultPageSize, add = false } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const list = trpc.integrations.list.useQuery(undefined, { retry: LIST_RETRIES });
  const [adding, setAdding] = useState(add);

  const needle = q.trim().toLocaleLowerCase();
  const all = (list.data ?? []).filter((i) => i.name.toLocaleLowerCase().includes(needle));
  const totalPages = Math.max(1, Math.ceil(all.length / pageSize));
  const shown = all.slice((page - 1) * pageSize, page * pageSize);
  const isEmpty = list.data?.length === 0;

  return (
    <Stack maw={1200}>
      <BreadcrumbBar
        title="Integrations"
        back={false}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add integration
          </Button>
        }
      />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Filter integrations..."
        aria-label="Filter integrations"
        w={320}
        value={q}
        onChange={(e) => void navigate({ search: { q: e.currentTarget.value || undefined, pageSize }, replace: true })}
      />
      <Paper>
        <Table highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Source</Table.Th>
              <Table.Th w={300}>Latest activity</Table.Th>
              <Table.Th w={100}>Syncing</Table.Th>
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
            {list.isError && <EmptyRow cols={4} text={errorMessage(list.error)} />}
            {list.data && !isEmpty && all.length === 0 && (
              <EmptyRow cols={4} text="No integrations match the filter." />
            )}
            {isEmpty && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Stack align="center" gap="xs" py="md">
                    <Text c="dimmed">No integrations added yet.</Text>
                    <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                      Add new integration
                    </Button>
                  </Stack>
                </Table.Td>
              </Table.Tr>
            )}
            {shown.map((integration) => {
              const latest = integration.recentRuns[0];
              return (
                <Table.Tr key={integration.id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Anchor
                        fw={500}
                        renderRoot={(props) => (
                          <Link {...props} to="/integrations/$id" params={{ id: integration.id }} />
                        )}
                      >
                        {integration.name}
                      </Anchor>
                      {integration.requiresReAuthentication && (
                        <Badge color="orange" variant="light" tt="none">
                          Action needed
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{integration.definitionName}</Table.Td>
                  <Table.Td>
                    {latest ? (
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm">{formatRecent(latest.createdAt)}</Text>
                        <RunStatusBadge status={latest.status} />
                      </Group>
                    ) : (
                      <Text size="sm" c="dimmed">
                        No activity yet
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <SyncIcon status={integration.syncStatus} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Paper>
      <ListPager
        count={all.length}
        noun="integration(s)"
        page={page}
        pageSize={pageSize}
        totalPages={totalPages}
        onPage={(p) => void navigate({ search: (s) => ({ ...s, page: p }) })}
        onPageSize={(size) => void navigate({ search: (s) => ({ ...s, pageSize: size, page: 1 }) })}
      />
      <AddIntegrationPanel opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}

import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ListPager } from '../components/list-pager';
import { ListFilter, ListTable } from '../components/list-table';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { formatRecent } from '../lib/format';
import { filterAndPage, listControls, listSearchSchema } from '../lib/list-search';
import { useAccess } from '../lib/use-access';
import { trpc } from '../trpc';
import { AddIntegrationPanel } from './-integrations/add-integration-panel';
import { RunStatusBadge } from './-integrations/run-status';
import { SyncIcon } from './-integrations/sync-icon';

export const Route = createFileRoute('/_app/integrations/')({
  validateSearch: listSearchSchema.extend({
    /** Opens the add drawer, e.g. on 'Back to selection'. */
    add: z.boolean().optional(),
  }),
  component: IntegrationsPage,
});

/** Spec §9: the integrations list is retried 3 times. */
const LIST_RETRIES = 3;

const COLUMNS = [
  { label: 'Name' },
  { label: 'Source' },
  { label: 'Latest activity', width: 300 },
  { label: 'Syncing', width: 100 },
];

function IntegrationsPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const controls = listControls(search, (patch, { replace }) =>
    navigate({ search: (s) => ({ ...s, ...patch }), replace }),
  );
  const list = trpc.integrations.list.useQuery(undefined, { retry: LIST_RETRIES });
  const [adding, setAdding] = useState(search.add ?? false);

  const { matching, shown, totalPages } = filterAndPage(list.data ?? [], controls);
  const isEmpty = list.data?.length === 0;
  // A read_only member sees the list in view mode: no add controls, the 'View only' mark.
  const access = useAccess();
  const writer = access.canWrite;

  return (
    <Stack>
      <BreadcrumbBar
        title="Integrations"
        back={false}
        mark={!access.loading && !writer && <ViewOnlyBadge />}
        actions={
          writer && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add integration
            </Button>
          )
        }
      />
      <ListFilter
        label="Filter integrations"
        placeholder="Filter integrations..."
        value={controls.q}
        onChange={controls.setFilter}
      />
      <ListTable
        columns={COLUMNS}
        highlightOnHover
        list={list}
        empty={
          isEmpty ? (
            <Stack align="center" gap="xs" py="md">
              <Text c="dimmed">No integrations added yet.</Text>
              {writer && (
                <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                  Add new integration
                </Button>
              )}
            </Stack>
          ) : (
            list.data && matching.length === 0 && 'No integrations match the filter.'
          )
        }
      >
        {shown.map((integration) => {
          const latest = integration.recentRuns[0];
          return (
            <Table.Tr key={integration.id}>
              <Table.Td>
                <Group gap="xs">
                  <Anchor
                    fw={500}
                    renderRoot={(props) => <Link {...props} to="/integrations/$id" params={{ id: integration.id }} />}
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
      </ListTable>
      <ListPager {...controls.pager} count={matching.length} noun="integration(s)" totalPages={totalPages} />
      {writer && <AddIntegrationPanel opened={adding} onClose={() => setAdding(false)} />}
    </Stack>
  );
}

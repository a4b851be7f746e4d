import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { AUTOMATION_MESSAGES, type AutomationListItem } from '../../shared/automations';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ListPager } from '../components/list-pager';
import { ListFilter, ListTable } from '../components/list-table';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { formatRecent } from '../lib/format';
import { filterAndPage, listControls, listSearchSchema } from '../lib/list-search';
import { useAccess } from '../lib/use-access';
import { trpc } from '../trpc';
import { CreateAutomationDialog } from './-automations/create-dialog';
import { useAutomationLive } from './-automations/live';
import { AutomationStatusBadge } from './-automations/status';

export const Route = createFileRoute('/_app/automations/')({
  validateSearch: listSearchSchema,
  component: AutomationsPage,
});

const COLUMNS = [
  { label: 'Name' },
  { label: 'Last run', width: 180 },
  { label: 'Duration', width: 100 },
  { label: 'Last status', width: 140 },
];

const byName = (a: AutomationListItem, b: AutomationListItem) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

function AutomationsPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const controls = listControls(search, (patch, { replace }) =>
    navigate({ search: (s) => ({ ...s, ...patch }), replace }),
  );
  const list = trpc.automations.list.useQuery();
  const [adding, setAdding] = useState(false);
  // A run starting or ending anywhere refreshes the Last run columns.
  useAutomationLive(() => false);
  const access = useAccess();
  const writer = access.canWrite;

  const sorted = [...(list.data ?? [])].sort(byName);
  const { matching, shown, totalPages } = filterAndPage(sorted, controls);
  const isEmpty = list.data?.length === 0;

  return (
    <Stack>
      <BreadcrumbBar
        title="Automations"
        back={false}
        mark={!access.loading && !writer && <ViewOnlyBadge />}
        actions={
          writer && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add automation
            </Button>
          )
        }
      />
      <ListFilter
        label="Filter automations"
        placeholder="Filter automations..."
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
              <Text c="dimmed">{AUTOMATION_MESSAGES.empty}</Text>
              {writer && (
                <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                  Add automation
                </Button>
              )}
            </Stack>
          ) : (
            list.data && matching.length === 0 && 'No automations match the filter.'
          )
        }
      >
        {shown.map((automation) => (
          <Table.Tr key={automation.id}>
            <Table.Td>
              <Anchor
                fw={500}
                renderRoot={(props) => <Link {...props} to="/automations/$id" params={{ id: automation.id }} />}
              >
                {automation.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{automation.lastRun ? formatRecent(automation.lastRun.startedAt) : ''}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {automation.lastRun?.durationInSeconds != null
                  ? `${Math.round(automation.lastRun.durationInSeconds)}s`
                  : ''}
              </Text>
            </Table.Td>
            <Table.Td>
              {automation.lastRun ? (
                <AutomationStatusBadge status={automation.lastRun.status} />
              ) : (
                <Text size="sm" c="dimmed">
                  {AUTOMATION_MESSAGES.noRunsYet}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <ListPager {...controls.pager} count={matching.length} noun="automation(s)" totalPages={totalPages} />
      {writer && adding && <CreateAutomationDialog opened onClose={() => setAdding(false)} />}
    </Stack>
  );
}

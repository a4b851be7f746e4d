import { ActionIcon, Alert, Button, Menu, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCalendarTime,
  IconDatabaseCog,
  IconDots,
  IconKey,
  IconPencil,
  IconRefresh,
  IconReload,
  IconTrash,
} from '@tabler/icons-react';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { INTEGRATION_MESSAGES, type Integration } from '../../shared/integrations';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ConfirmDialog } from '../components/confirm-dialog';
import { gridSearchSchema } from '../components/data-grid/url-state';
import { useGridUrlState } from '../components/data-grid/use-grid-url-state';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { errorMessage } from '../lib/error-message';
import { useAccess } from '../lib/use-access';
import { trpc } from '../trpc';
import { ActivityLog } from './-integrations/activity-log';
import { DatasetData } from './-integrations/dataset-data';
import { DatasetSettingsDialog } from './-integrations/dataset-settings-dialog';
import { IntegrationSettingsDialog } from './-integrations/integration-settings-dialog';
import { useDatasets } from './-integrations/discovery-state';
import { ChangeAddressDialog, PushAddress } from './-integrations/push-address';
import { RefreshDataDialog } from './-integrations/refresh-data-dialog';
import { ScheduleDialog } from './-integrations/schedule-dialog';
import { SyncControls } from './-integrations/sync-controls';

const TABS = ['Data', 'ActivityLog'] as const;
type Tab = (typeof TABS)[number];

export const Route = createFileRoute('/_app/integrations/$id')({
  validateSearch: gridSearchSchema.extend({
    tab: z.enum(TABS).optional().catch(undefined),
    dataset: z.string().optional(),
    /** The Activity log's page of run history. */
    runsPage: z.number().int().min(1).optional().catch(undefined),
  }),
  component: IntegrationPage,
});

export const DELETE_PROMPT = 'Are you sure you want to delete this integration?';
const isPush = (i: Integration) => i.type === 'Webhook' || i.type === 'IncomingEmail';

function IntegrationPage() {
  const { id } = Route.useParams();
  const integration = trpc.integrations.get.useQuery({ id });
  if (integration.isError) return <Alert color="red">{errorMessage(integration.error)}</Alert>;
  if (!integration.data) return <Skeleton h={400} />;
  return <IntegrationView integration={integration.data} />;
}

function IntegrationView({ integration }: { integration: Integration }) {
  const { id } = integration;
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const utils = trpc.useUtils();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [editingSettings, setEditingSettings] = useState(false);
  // 'turnOn': the Data syncing toggle asked for a schedule (cancelling leaves syncing off).
  const [scheduling, setScheduling] = useState<false | 'edit' | 'turnOn'>(false);
  const [refreshing, setRefreshing] = useState(false);
  const [changingAddress, setChangingAddress] = useState(false);
  const access = useAccess();
  // Owners and admins change the integration; read_only members see it in view mode (the server
  // refuses their writes too). They alone see a push integration's address.
  const writer = access.canWrite;
  const push = isPush(integration);
  // Push integrations have nothing to discover; their datasets appear as data arrives.
  const discovery = useDatasets(id, integration.type !== 'IncomingEmail', writer);
  const remove = trpc.integrations.delete.useMutation({
    onSuccess: async () => {
      await utils.integrations.list.invalidate();
      await navigate({ to: '/integrations' });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });

  const refreshDatasets = trpc.integrations.refreshDatasets.useMutation({
    onSuccess: (response) => utils.integrations.datasets.setData({ id }, response),
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  // Discovered, but nothing chosen yet: the user picks datasets before anything can sync.
  const nothingChosen = !push && discovery.loaded && !discovery.datasets.some((d) => d.isSelected);
  // Why 'Sync data now' cannot run yet: the server refuses a sync of nothing, the button says so first.
  const syncBlocked = discovery.loaded
    ? nothingChosen
      ? INTEGRATION_MESSAGES.noDatasetsChosen
      : null
    : 'Waiting for the available datasets to be discovered.';

  const tab: Tab = search.tab ?? 'Data';
  const grid = useGridUrlState(
    search,
    (patch) => void navigate({ search: (s) => ({ ...s, ...patch }), replace: true }),
  );

  const menu = (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Integration menu">
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditingSettings(true)}>
          Settings
        </Menu.Item>
        {integration.type !== 'IncomingEmail' && (
          <Menu.Item leftSection={<IconDatabaseCog size={16} />} onClick={() => setSettingsOpen(true)}>
            Dataset settings
          </Menu.Item>
        )}
        {push && writer && (
          <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setChangingAddress(true)}>
            Change address
          </Menu.Item>
        )}
        {!push && (
          <>
            <Menu.Item leftSection={<IconCalendarTime size={16} />} onClick={() => setScheduling('edit')}>
              Sync schedule
            </Menu.Item>
            <Menu.Item leftSection={<IconRefresh size={16} />} onClick={() => refreshDatasets.mutate({ id })}>
              Refresh datasets
            </Menu.Item>
            <Menu.Item leftSection={<IconReload size={16} />} onClick={() => setRefreshing(true)}>
              Refresh all data
            </Menu.Item>
          </>
        )}
        <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)}>
          Delete integration
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <Stack gap="sm">
      <BreadcrumbBar
        title={integration.name}
        mark={!access.loading && !writer && <ViewOnlyBadge />}
        actions={writer && menu}
      />
      {push ? (
        <PushAddress integration={integration} canSee={writer} />
      ) : (
        <SyncControls
          integration={integration}
          canWrite={writer}
          blockedReason={syncBlocked}
          onScheduleNeeded={() => setScheduling('turnOn')}
        />
      )}
      {discovery.banner}
      {nothingChosen && (
        <Alert color="blue" title="Choose the datasets to sync">
          <Text size="sm">Nothing syncs until at least one dataset is chosen.</Text>
          {writer ? (
            <Button size="xs" mt="xs" variant="light" onClick={() => setSettingsOpen(true)}>
              Dataset settings
            </Button>
          ) : (
            <Text size="sm">An owner or admin of this account chooses them.</Text>
          )}
        </Alert>
      )}
      <Tabs
        value={tab}
        onChange={(next) => void navigate({ search: (s) => ({ ...s, tab: (next ?? 'Data') as Tab }), replace: true })}
      >
        <Tabs.List>
          <Tabs.Tab value="Data">Data</Tabs.Tab>
          <Tabs.Tab value="ActivityLog">Activity log</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="Data" pt="sm">
          <DatasetData
            datasets={integration.datasets}
            selected={search.dataset}
            onSelect={(dataset) =>
              void navigate({ search: (s) => ({ ...s, dataset, filter: undefined, sort: undefined, page: undefined }) })
            }
            query={grid.query}
            onQueryChange={grid.setQuery}
            pagination={grid.pagination}
            onViewChange={grid.setView}
          />
        </Tabs.Panel>
        <Tabs.Panel value="ActivityLog" pt="sm">
          {tab === 'ActivityLog' && (
            <ActivityLog
              integrationId={id}
              runsPage={search.runsPage ?? 1}
              onRunsPage={(page) =>
                void navigate({ search: (s) => ({ ...s, runsPage: page > 1 ? page : undefined }), replace: true })
              }
            />
          )}
        </Tabs.Panel>
      </Tabs>
      {writer && settingsOpen && (
        <DatasetSettingsDialog
          integrationId={id}
          datasets={discovery.datasets}
          opened
          onClose={() => setSettingsOpen(false)}
        />
      )}
      {refreshing && (
        <RefreshDataDialog
          integrationId={id}
          datasetNames={discovery.datasets.filter((d) => d.isSelected).map((d) => d.name)}
          onClose={() => setRefreshing(false)}
        />
      )}
      {writer && scheduling && (
        <ScheduleDialog
          integration={integration}
          turningOn={scheduling === 'turnOn'}
          onClose={() => setScheduling(false)}
        />
      )}
      {changingAddress && <ChangeAddressDialog integration={integration} onClose={() => setChangingAddress(false)} />}
      {editingSettings && (
        <IntegrationSettingsDialog integration={integration} onClose={() => setEditingSettings(false)} />
      )}
      <ConfirmDialog
        opened={deleting}
        danger
        message={DELETE_PROMPT}
        loading={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.mutate({ id })}
      />
    </Stack>
  );
}

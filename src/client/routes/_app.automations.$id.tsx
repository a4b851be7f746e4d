import { ActionIcon, Alert, Anchor, Button, Group, Menu, Paper, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconDots, IconPencil, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { AUTOMATION_MESSAGES, type AutomationDefinition } from '../../shared/automations';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { errorMessage } from '../lib/error-message';
import { formatDateTime } from '../lib/format';
import { useAccess } from '../lib/use-access';
import { trpc } from '../trpc';
import { ActivityLogTab } from './-automations/activity-log';
import { ConfigureTab } from './-automations/configure-tab';
import { LiveBannerAlert, useAutomationLive } from './-automations/live';
import { AutomationSettingsDialog } from './-automations/settings-dialog';
import { AutomationStatusBadge } from './-automations/status';

const TABS = ['Configure', 'ActivityLog'] as const;
type Tab = (typeof TABS)[number];

export const Route = createFileRoute('/_app/automations/$id')({
  validateSearch: z.object({ tab: z.enum(TABS).optional().catch(undefined) }),
  component: AutomationPage,
});

function AutomationPage() {
  const { id } = Route.useParams();
  const automation = trpc.automations.get.useQuery({ id });
  if (automation.isError) return <Alert color="red">{errorMessage(automation.error)}</Alert>;
  if (!automation.data) return <Skeleton h={400} />;
  return <AutomationView automation={automation.data} />;
}

function AutomationView({ automation }: { automation: AutomationDefinition }) {
  const { id } = automation;
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const utils = trpc.useUtils();
  const access = useAccess();
  const writer = access.canWrite;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const live = useAutomationLive((message) => message.automationDefinitionId === id);
  const latest = trpc.automationRuns.latest.useQuery({ automationDefinitionId: id });
  const latestRun = latest.data?.[0] ?? null;

  const runNow = trpc.automationRuns.trigger.useMutation({
    onSuccess: async () => {
      await utils.automationRuns.invalidate();
      await utils.automations.list.invalidate();
    },
  });
  const remove = trpc.automations.remove.useMutation({
    onSuccess: async () => {
      await utils.automations.list.invalidate();
      await navigate({ to: '/automations' });
    },
    onError: () => setDeleting(false),
  });

  const tab: Tab = search.tab ?? 'Configure';
  const menu = (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Automation menu">
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
          Settings
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)}>
          Delete automation
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <Stack gap="sm">
      <BreadcrumbBar
        title={automation.name}
        mark={!access.loading && !writer && <ViewOnlyBadge />}
        actions={
          writer && (
            <>
              <Button
                leftSection={<IconPlayerPlay size={16} />}
                disabled={automation.error !== null}
                loading={runNow.isPending}
                onClick={() => runNow.mutate({ id })}
              >
                Run now
              </Button>
              {menu}
            </>
          )
        }
      />
      {automation.description && (
        <Text c="dimmed" size="sm" mt={-12} style={{ overflowWrap: 'anywhere' }}>
          {automation.description}
        </Text>
      )}
      {live.banner ? (
        <LiveBannerAlert banner={live.banner} onClose={live.dismiss} />
      ) : (
        latestRun && (
          <Paper p="sm" withBorder data-testid="automation-status">
            <Group gap="sm" wrap="wrap">
              <Text size="sm" fw={600}>
                Run #{latestRun.runNumber}
              </Text>
              <AutomationStatusBadge status={latestRun.status} />
              <Text size="sm" c="dimmed">
                {formatDateTime(latestRun.startedAt ?? latestRun.createdAt)}
              </Text>
              <Anchor
                size="sm"
                renderRoot={(props) => (
                  <Link {...props} to="/automations/$id/run/$runId" params={{ id, runId: latestRun.id }} />
                )}
              >
                View run
              </Anchor>
            </Group>
          </Paper>
        )
      )}
      {automation.error && (
        <Alert color="red" title={AUTOMATION_MESSAGES.hasError} data-testid="automation-error">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {automation.error}
          </Text>
        </Alert>
      )}
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(value) => {
          if (value) void navigate({ search: (s) => ({ ...s, tab: value as Tab }), replace: true });
        }}
      >
        <Tabs.List>
          <Tabs.Tab value="Configure">Configure</Tabs.Tab>
          <Tabs.Tab value="ActivityLog">Activity log</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="Configure" pt="md">
          <ConfigureTab automation={automation} canWrite={writer} />
        </Tabs.Panel>
        <Tabs.Panel value="ActivityLog" pt="md">
          <ActivityLogTab automationId={id} />
        </Tabs.Panel>
      </Tabs>
      {editing && <AutomationSettingsDialog automation={automation} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        opened={deleting}
        danger
        message={AUTOMATION_MESSAGES.deletePrompt}
        loading={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.mutate({ id })}
      />
    </Stack>
  );
}

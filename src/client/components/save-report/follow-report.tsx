import { Anchor, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReportProgress } from '../../../shared/reports';
import { errorMessage } from '../../lib/error-message';
import { queryClient } from '../../query-client';
import { trpcClient } from '../../trpc';

/** How often the notice asks where the report stands. */
const POLL_MS = 1_000;

function ReportsLink() {
  // A plain link: the Reports page lists the new report (the bell also has its notification).
  return (
    <Anchor href="/reports" size="sm">
      Open Reports
    </Anchor>
  );
}

function show(report: ReportProgress): void {
  const id = `report-${report.id}`;
  if (report.status === 'Pending') {
    const props = {
      id,
      loading: true,
      autoClose: false as const,
      withCloseButton: true,
      title: `Generating "${report.name}"`,
      message: (
        <Stack gap={4}>
          <Progress value={report.progress} size="sm" aria-label="Report progress" />
          <Text size="xs" c="dimmed">
            {report.progress}% · it will appear on the Reports page
          </Text>
        </Stack>
      ),
    };
    notifications.update(props);
    return;
  }
  const done = {
    id,
    loading: false,
    autoClose: false as const,
    withCloseButton: true,
    color: report.status === 'Ready' ? 'teal' : 'red',
    title: report.status === 'Ready' ? 'Report ready' : 'Report failed',
    message: (
      <Stack gap={4}>
        <Text size="sm">
          {report.status === 'Ready'
            ? `"${report.name}" is ready to download.`
            : (report.error ?? 'The report failed.')}
        </Text>
        <ReportsLink />
      </Stack>
    ),
  };
  notifications.update(done);
}

/**
 * After "Save as report": a notice that follows the report's generation (progress while Pending),
 * then says it is ready (with a link to the Reports page) or why it failed. It keeps following
 * after the dialog closes and while the user moves around the app.
 */
export function followReport(report: ReportProgress): void {
  notifications.show({ id: `report-${report.id}`, message: '', loading: true, autoClose: false });
  show(report);
  const poll = async () => {
    try {
      const next = await trpcClient.reports.progress.query({ id: report.id });
      show(next);
      if (next.status === 'Pending') {
        setTimeout(() => void poll(), POLL_MS);
        return;
      }
      // The Reports page and the bell show it at once.
      void queryClient.invalidateQueries();
    } catch (error) {
      notifications.update({
        id: `report-${report.id}`,
        loading: false,
        color: 'red',
        title: 'Report status unknown',
        message: `${errorMessage(error)} See the Reports page.`,
      });
    }
  };
  setTimeout(() => void poll(), POLL_MS);
}

import { Badge, Loader, ThemeIcon } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBan,
  IconCheck,
  IconClockExclamation,
  IconHelp,
  IconPlayerSkipForward,
  IconX,
} from '@tabler/icons-react';
import type { AutomationRunStatus, StepRunStatus } from '../../../shared/automations';

type AnyStatus = AutomationRunStatus | StepRunStatus;

const COLORS: Record<AnyStatus, string> = {
  Pending: 'gray',
  Running: 'blue',
  Completed: 'teal',
  Warned: 'orange',
  Skipped: 'gray',
  Failed: 'red',
  Cancelled: 'gray',
  Terminated: 'red',
  TimedOut: 'red',
  Error: 'red',
  Unknown: 'gray',
};

const LABELS: Partial<Record<AnyStatus, string>> = { TimedOut: 'Timed out' };

/** Spec: Pending and Running are shown with a spinner, since they still move. */
export const isMoving = (status: AnyStatus) => status === 'Pending' || status === 'Running';

/** A run's (or a step's) status as a small badge. */
export function AutomationStatusBadge({ status }: { status: AnyStatus }) {
  return (
    <Badge
      variant="light"
      color={COLORS[status]}
      tt="none"
      // Whole, never cut to "Compl…" in a narrow table column.
      miw="max-content"
      leftSection={isMoving(status) ? <Loader size={10} color={COLORS[status]} /> : undefined}
    >
      {LABELS[status] ?? status}
    </Badge>
  );
}

/** The status as an icon (the activity log's runs): a spinner while the run moves. */
export function AutomationStatusIcon({ status }: { status: AnyStatus }) {
  if (isMoving(status)) return <Loader size={18} color={COLORS[status]} aria-label={status} />;
  const Icon =
    status === 'Completed'
      ? IconCheck
      : status === 'Cancelled'
        ? IconBan
        : status === 'TimedOut'
          ? IconClockExclamation
          : status === 'Warned'
            ? IconAlertTriangle
            : status === 'Skipped'
              ? IconPlayerSkipForward
              : status === 'Unknown'
                ? IconHelp
                : IconX;
  return (
    <ThemeIcon size={22} radius="xl" variant="light" color={COLORS[status]} aria-label={status} role="img">
      <Icon size={14} />
    </ThemeIcon>
  );
}

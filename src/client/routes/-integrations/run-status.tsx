import { Badge, Loader } from '@mantine/core';
import type { RunStatus } from '../../../shared/integrations';

const COLORS: Record<RunStatus, string> = {
  Completed: 'teal',
  Failed: 'red',
  Terminated: 'red',
  Running: 'blue',
  Cancelled: 'gray',
  Pending: 'gray',
};

/** A run's status as a small badge; Running and Pending spin, since they are still moving. */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  const moving = status === 'Running' || status === 'Pending';
  return (
    <Badge
      variant="light"
      color={COLORS[status]}
      tt="none"
      // Whole, never cut to "Compl…" in a narrow table column.
      miw="max-content"
      leftSection={moving ? <Loader size={10} color={COLORS[status]} /> : undefined}
    >
      {status}
    </Badge>
  );
}

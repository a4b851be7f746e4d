import { Tooltip } from '@mantine/core';
import { IconCircleCheckFilled, IconPlayerPauseFilled } from '@tabler/icons-react';
import type { SyncStatus } from '../../../shared/integrations';

/** Active or Inactive syncing, as an icon with its word for screen readers and on hover. */
export function SyncIcon({ status }: { status: SyncStatus }) {
  const label = status === 'Active' ? 'Active' : 'Inactive';
  return (
    <Tooltip label={label}>
      {status === 'Active' ? (
        <IconCircleCheckFilled size={18} color="var(--mantine-color-teal-6)" aria-label={label} role="img" />
      ) : (
        <IconPlayerPauseFilled size={18} color="var(--mantine-color-gray-5)" aria-label={label} role="img" />
      )}
    </Tooltip>
  );
}

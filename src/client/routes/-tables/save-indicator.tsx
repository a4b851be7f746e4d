import { Badge, Loader } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';

export type SaveState = 'idle' | 'saving' | 'saved' | 'error';

/** The editor's autosave indicator: Saving, Saved or Error. */
export function SaveIndicator({ state }: { state: SaveState }) {
  if (state === 'idle') return null;
  if (state === 'saving') {
    return (
      <Badge variant="light" color="gray" leftSection={<Loader size={10} />} aria-live="polite">
        Saving
      </Badge>
    );
  }
  if (state === 'error') {
    return (
      <Badge variant="light" color="red" leftSection={<IconAlertCircle size={12} />} aria-live="polite">
        Error
      </Badge>
    );
  }
  return (
    <Badge variant="light" color="teal" leftSection={<IconCheck size={12} />} aria-live="polite">
      Saved
    </Badge>
  );
}

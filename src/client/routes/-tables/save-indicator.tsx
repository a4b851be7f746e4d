import { Badge, Button, Group, Loader, Progress, Text, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import type { SaveProgress } from './use-save-queue';

export type SaveState = 'idle' | 'saving' | 'saved' | 'error';

interface SaveIndicatorProps {
  state: SaveState;
  /** A large save (a paste in several calls): how far it is. */
  progress?: SaveProgress | null;
  /** Why the last save failed, and what is waiting to be saved. */
  failure?: string | null;
  unsavedCount?: number;
  onRetry?: () => void;
  onDiscard?: () => void;
}

/** Progress is shown for saves of this many cells and rows or more; smaller ones are quick. */
const SHOW_PROGRESS_FROM = 500;

/** The editor's autosave indicator: Saving (with progress for large saves), Saved or Error (with Retry). */
export function SaveIndicator({ state, progress, failure, unsavedCount = 0, onRetry, onDiscard }: SaveIndicatorProps) {
  if (state === 'idle') return null;
  if (state === 'saving') {
    const big = progress && progress.total >= SHOW_PROGRESS_FROM;
    return (
      <Group gap={6} wrap="nowrap">
        <Badge variant="light" color="gray" leftSection={<Loader size={10} />} aria-live="polite">
          Saving
        </Badge>
        {big && (
          <>
            <Progress
              value={(100 * progress.done) / progress.total}
              w={120}
              size="sm"
              aria-label="Save progress"
              transitionDuration={200}
            />
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {progress.done.toLocaleString()} of {progress.total.toLocaleString()}
            </Text>
          </>
        )}
      </Group>
    );
  }
  if (state === 'error') {
    return (
      <Group gap={6} wrap="wrap" role="status">
        <Tooltip label={failure ?? 'The last change could not be saved.'} multiline w={320} withArrow>
          <Badge
            variant="light"
            color="red"
            leftSection={<IconAlertCircle size={12} />}
            aria-live="polite"
            tabIndex={0}
          >
            Error
          </Badge>
        </Tooltip>
        {unsavedCount > 0 && (
          <Text size="xs" c="red.8">
            {unsavedCount === 1 ? '1 change not saved' : `${unsavedCount.toLocaleString()} changes not saved`}
          </Text>
        )}
        {onRetry && unsavedCount > 0 && (
          <Button size="compact-xs" variant="light" color="red" onClick={onRetry}>
            Retry
          </Button>
        )}
        {onDiscard && unsavedCount > 0 && (
          <Button size="compact-xs" variant="subtle" color="gray" onClick={onDiscard}>
            Discard
          </Button>
        )}
      </Group>
    );
  }
  return (
    <Badge variant="light" color="teal" leftSection={<IconCheck size={12} />} aria-live="polite">
      Saved
    </Badge>
  );
}

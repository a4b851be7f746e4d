import { Button, Group, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

interface PopupActionsProps {
  addLabel: string;
  onAdd: () => void;
  onClear: () => void;
  onApply: () => void;
  /** When set, Apply is disabled and this says why. */
  blockedReason?: string | null;
}

/** The footer of the Filter and Sort popups: add another, Clear, Apply. */
export function PopupActions({ addLabel, onAdd, onClear, onApply, blockedReason }: PopupActionsProps) {
  return (
    <Group justify="space-between" mt="xs">
      <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={onAdd}>
        {addLabel}
      </Button>
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={onClear}>
          Clear
        </Button>
        <Tooltip label={blockedReason} disabled={!blockedReason}>
          <Button size="xs" onClick={onApply} disabled={!!blockedReason} data-disabled={!!blockedReason || undefined}>
            Apply
          </Button>
        </Tooltip>
      </Group>
    </Group>
  );
}

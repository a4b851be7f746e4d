import { Button, Group, List, Text } from '@mantine/core';
import type { NewColumn } from './paste-plan';
import { Dialog } from '../dialog';

interface PasteColumnsDialogProps {
  columns: NewColumn[] | null;
  onAdd: () => void;
  onWithout: () => void;
  onCancel: () => void;
}

/** Asked before a paste wider than the table adds columns: it names them, and nothing is left out unasked. */
export function PasteColumnsDialog({ columns, onAdd, onWithout, onCancel }: PasteColumnsDialogProps) {
  const count = columns?.length ?? 0;
  return (
    <Dialog opened={columns !== null} onClose={onCancel} title="Add columns for the paste?" centered size="md">
      <Text size="sm">
        The pasted cells reach past the last column. Pasting them adds {count === 1 ? 'this column' : 'these columns'}:
      </Text>
      <List size="sm" mt="xs" data-testid="paste-new-columns">
        {columns?.map((c) => (
          <List.Item key={c.key}>{c.name}</List.Item>
        ))}
      </List>
      <Group justify="flex-end" mt="lg" gap="xs">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="default" onClick={onWithout}>
          Paste without them
        </Button>
        <Button onClick={onAdd} data-autofocus>
          {count === 1 ? 'Add 1 column' : `Add ${count} columns`}
        </Button>
      </Group>
    </Dialog>
  );
}

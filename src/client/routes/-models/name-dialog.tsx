import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Dialog } from '../../components/dialog';

/** 'Create new model' and 'Duplicate Model': one required name, Enter submits. */
export function NameDialog({
  opened,
  title,
  initialName,
  submitLabel,
  loading,
  onSubmit,
  onClose,
}: {
  opened: boolean;
  title: string;
  initialName: string;
  submitLabel: string;
  loading?: boolean;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(initialName);
  // Each opening starts from the given name (adjusted while rendering, not in an effect).
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) setName(initialName);
  }
  const trimmed = name.trim();
  return (
    <Dialog opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed) onSubmit(trimmed);
        }}
      >
        <TextInput
          label="Name"
          required
          data-autofocus
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.currentTarget.value)}
          error={name.length > 0 && !trimmed ? 'Enter a name' : undefined}
        />
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!trimmed} loading={loading}>
            {submitLabel}
          </Button>
        </Group>
      </form>
    </Dialog>
  );
}

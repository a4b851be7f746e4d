import { Button, Group, Modal, NumberInput, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { StaticTableColumn } from '../../../shared/static-tables';

/** Column settings: Name, Description, Order (read-only) and Formatting (none for now). */
export function ColumnSettingsDialog({
  column,
  onSave,
  onClose,
  saving,
}: {
  column: StaticTableColumn;
  onSave: (patch: { displayName: string; description: string | null }) => void;
  onClose: () => void;
  saving: boolean;
}) {
  const [name, setName] = useState(column.displayName);
  const [description, setDescription] = useState(column.description ?? '');
  return (
    <Modal opened onClose={onClose} title="Column settings" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) onSave({ displayName: name.trim(), description: description.trim() || null });
        }}
      >
        <Stack>
          <TextInput
            label="Name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={name.trim() ? null : 'Name cannot be empty.'}
            data-autofocus
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <NumberInput label="Order" value={column.order} readOnly variant="filled" />
          <Select label="Formatting" data={[{ value: 'none', label: 'None' }]} value="none" readOnly variant="filled" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim()} loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

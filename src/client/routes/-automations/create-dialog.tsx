import { Alert, Button, Group, Stack } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Dialog } from '../../components/dialog';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { NameFields } from './name-fields';

/** 'Create new automation': Name (required) and 'Description (optional)'; opens the new automation. */
export function CreateAutomationDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = trpc.automations.create.useMutation({
    // The dialog shows the error itself.
    meta: { silent: true },
    onSuccess: async (created) => {
      utils.automations.get.setData({ id: created.id }, created);
      await utils.automations.list.invalidate();
      onClose();
      await navigate({ to: '/automations/$id', params: { id: created.id } });
    },
  });
  const trimmed = name.trim();
  const close = () => {
    if (!create.isPending) onClose();
  };
  return (
    <Dialog opened={opened} onClose={close} title="Create new automation">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed && !create.isPending) create.mutate({ name: trimmed, description: description.trim() });
        }}
      >
        <Stack gap="sm">
          <NameFields
            name={name}
            description={description}
            onNameChange={setName}
            onDescriptionChange={setDescription}
            descriptionLabel="Description (optional)"
          />
          {create.isError && (
            <Alert color="red" role="alert">
              {errorMessage(create.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={!trimmed} loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

import { Alert, Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import type { AutomationDefinition } from '../../../shared/automations';
import { Dialog } from '../../components/dialog';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { NameFields } from './name-fields';

/** Settings: name (required) and description; Save only once something changed (spec §5). */
export function AutomationSettingsDialog({
  automation,
  onClose,
}: {
  automation: AutomationDefinition;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const [name, setName] = useState(automation.name);
  const [description, setDescription] = useState(automation.description);
  const save = trpc.automations.update.useMutation({
    // The dialog shows the error itself.
    meta: { silent: true },
    onSuccess: async (saved) => {
      utils.automations.get.setData({ id: saved.id }, saved);
      onClose();
      await utils.automations.list.invalidate();
    },
  });
  const trimmed = name.trim();
  const changed = trimmed !== automation.name || description.trim() !== automation.description;
  const close = () => {
    if (!save.isPending) onClose();
  };
  return (
    <Dialog opened onClose={close} title="Settings">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed && changed && !save.isPending)
            save.mutate({ id: automation.id, name: trimmed, description: description.trim() });
        }}
      >
        <Stack gap="sm">
          <NameFields
            name={name}
            description={description}
            onNameChange={setName}
            onDescriptionChange={setDescription}
            descriptionLabel="Description"
            flagEmptyName
          />
          {save.isError && (
            <Alert color="red" role="alert">
              {errorMessage(save.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={!changed || !trimmed} loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

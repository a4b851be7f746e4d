import { Alert, Button, Code, Group, Input, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { Integration, IntegrationDefinition } from '../../../shared/integrations';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { ConfigurationFields } from './configuration-fields';
import { FIELD_MESSAGES, type Draft } from './settings-schema';
import { useSettingsForm } from './use-settings-form';
import { Dialog } from '../../components/dialog';

interface SaveInput {
  name: string;
  configuration?: Draft;
}

/**
 * Integration settings (spec §4): the name and the definition's configuration fields, prefilled
 * from the saved configuration. Secrets arrive masked; sent back unchanged, the server keeps them.
 * The configuration is sent only when it changed, so a rename does not re-check the connection.
 */
export function IntegrationSettingsDialog({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  const utils = trpc.useUtils();
  const definition = trpc.integrations.definition.useQuery({ id: integration.integrationDefinitionId }, { retry: 1 });
  const save = trpc.integrations.saveSettings.useMutation({
    onSuccess: async (saved) => {
      utils.integrations.get.setData({ id: integration.id }, saved);
      onClose();
      // Configuration changes can change what the detail shows (datasets, runs): refetch it all.
      await utils.integrations.invalidate();
    },
  });
  // While saving, a stray click outside must not drop the answer (and the error it may bring).
  const close = () => {
    if (!save.isPending) onClose();
  };

  return (
    <Dialog opened onClose={close} title="Integration settings" size="lg">
      {definition.isPending ? (
        <Skeleton h={240} />
      ) : definition.isError ? (
        <Alert color="red" title="Cannot load the integration's settings">
          {errorMessage(definition.error)}
        </Alert>
      ) : (
        <SettingsForm
          integration={integration}
          definition={definition.data}
          saving={save.isPending}
          error={save.isError ? errorMessage(save.error) : null}
          onSave={(input) => save.mutate({ id: integration.id, ...input })}
          onCancel={close}
        />
      )}
    </Dialog>
  );
}

function SettingsForm({
  integration,
  definition,
  saving,
  error,
  onSave,
  onCancel,
}: {
  integration: Integration;
  definition: IntegrationDefinition;
  saving: boolean;
  error: string | null;
  onSave: (input: SaveInput) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(integration.name);
  const settings = useSettingsForm(definition.specification.settings, integration.configuration);
  const trimmed = name.trim();
  const changed = trimmed !== integration.name || settings.changed;

  const submit = () => {
    if (!trimmed || !changed || saving) return;
    if (!settings.changed) return onSave({ name: trimmed });
    if (Object.keys(settings.problems).length > 0) return settings.revealProblems();
    onSave({ name: trimmed, configuration: settings.configuration() });
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <TextInput
          label="Name"
          withAsterisk
          data-autofocus
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={trimmed === '' ? FIELD_MESSAGES.required : undefined}
        />
        <SimpleGrid cols={2} spacing="md">
          <ReadOnly label="Source" value={integration.definitionName} />
          <ReadOnly
            label="Schema name"
            value={<Code fz="sm">{integration.schemaName}</Code>}
            description="Fixed after creation"
          />
        </SimpleGrid>
        <ConfigurationFields form={settings} />
        {error && (
          <Alert color="red" title="Settings not saved" role="alert">
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {error}
            </Text>
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={!changed || !trimmed} loading={saving}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A labelled value that cannot be edited here: text, not an input. */
function ReadOnly({ label, value, description }: { label: string; value: ReactNode; description?: string }) {
  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      description={description}
      inputWrapperOrder={['label', 'input', 'description']}
    >
      <Text size="sm" mt={4} component="div">
        {value}
      </Text>
    </Input.Wrapper>
  );
}

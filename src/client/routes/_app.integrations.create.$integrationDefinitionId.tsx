import { Alert, Button, Grid, Group, Paper, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { schemaNameFrom, type IntegrationDefinition } from '../../shared/integrations';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { useAccess } from '../lib/use-access';
import { errorMessage } from '../lib/error-message';
import { trpc } from '../trpc';
import { ConfigurationFields } from './-integrations/configuration-fields';
import { useSettingsForm } from './-integrations/use-settings-form';

export const Route = createFileRoute('/_app/integrations/create/$integrationDefinitionId')({
  component: CreateIntegrationPage,
});

function CreateIntegrationPage() {
  const { integrationDefinitionId } = Route.useParams();
  const definition = trpc.integrations.definition.useQuery({ id: integrationDefinitionId }, { retry: false });
  const navigate = useNavigate();
  const access = useAccess();
  const back = () => void navigate({ to: '/integrations', search: { add: true } });

  if (definition.isPending || access.loading) return <Skeleton h={400} />;
  // A read_only member cannot add integrations (the server refuses it): say so instead of a form.
  if (!access.canWrite)
    return (
      <Stack maw={720}>
        <Alert color="gray" title="View only">
          Only owners and admins of this account can add integrations.
        </Alert>
        <Group>
          <Button
            variant="default"
            leftSection={<IconArrowLeft size={16} />}
            onClick={() => void navigate({ to: '/integrations' })}
          >
            Back to integrations
          </Button>
        </Group>
      </Stack>
    );
  if (definition.isError)
    return (
      <Stack maw={720}>
        <Alert color="red" title="Cannot create this integration">
          {errorMessage(definition.error)}
        </Alert>
        <Group>
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={back}>
            Back to selection
          </Button>
        </Group>
      </Stack>
    );
  return <CreateForm definition={definition.data} onBack={back} />;
}

function CreateForm({ definition, onBack }: { definition: IntegrationDefinition; onBack: () => void }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [name, setName] = useState('');
  const [schemaName, setSchemaName] = useState('');
  const [schemaEdited, setSchemaEdited] = useState(false);
  const settings = useSettingsForm(definition.specification.settings);
  const create = trpc.integrations.create.useMutation({
    onSuccess: async (integration) => {
      await utils.integrations.list.invalidate();
      await navigate({ to: '/integrations/$id', params: { id: integration.id } });
    },
  });

  const effectiveSchema = schemaEdited ? schemaName : schemaNameFrom(name);
  const canComplete =
    name.trim() !== '' && effectiveSchema.trim() !== '' && Object.keys(settings.problems).length === 0;

  const submit = () => {
    if (!canComplete) return;
    create.mutate({
      integrationDefinitionId: definition.id,
      name: name.trim(),
      schemaName: schemaNameFrom(effectiveSchema.trim()),
      configuration: settings.configuration(),
    });
  };

  const form = (
    <Paper p="lg" withBorder>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput label="Name" withAsterisk value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <TextInput
            label="Schema name"
            withAsterisk
            description="Lowercase letters, digits and _. It cannot be changed later."
            value={effectiveSchema}
            onChange={(e) => {
              setSchemaEdited(true);
              setSchemaName(schemaNameFrom(e.currentTarget.value));
            }}
          />
          <ConfigurationFields form={settings} />
          {create.isError && (
            <Alert color="red" title="Failed to create integration">
              {errorMessage(create.error)}
            </Alert>
          )}
          <Group justify="space-between">
            <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={onBack}>
              Back to selection
            </Button>
            <Button type="submit" disabled={!canComplete} loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );

  return (
    <Stack>
      <BreadcrumbBar title={`Add ${definition.name} integration`} />
      {definition.docs ? (
        <Grid>
          <Grid.Col span={{ base: 12, md: 7 }}>{form}</Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Paper p="lg" withBorder>
              <Text fw={600} mb="xs">
                About {definition.name}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {definition.docs}
              </Text>
            </Paper>
          </Grid.Col>
        </Grid>
      ) : (
        <Stack maw={720}>{form}</Stack>
      )}
    </Stack>
  );
}

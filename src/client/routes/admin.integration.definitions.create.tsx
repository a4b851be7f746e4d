import { Button, Checkbox, Grid, Group, Paper, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { INTEGRATION_TYPES, type IntegrationType } from '../../shared/integrations';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { trpc } from '../trpc';
import { ADMIN_PAGE_WIDTH } from './-admin/admin-page';
import { DefinitionPreview } from './-admin/definition-preview';
import { SpecificationEditor } from './-admin/specification-editor';
import { useSpecificationCheck } from './-admin/use-specification-check';

/** adminCreateIntegrationDefinition: a custom definition from a JSON Schema, checked and previewed as typed. */
export const Route = createFileRoute('/admin/integration/definitions/create')({
  component: CreateDefinitionPage,
});

/** A starting point that shows the common field kinds. */
const STARTER = `{
  "settings": {
    "type": "object",
    "properties": {
      "base_url": {
        "type": "string",
        "title": "Base URL",
        "description": "Where the API answers, e.g. https://api.example.com",
        "pattern": "^https?://"
      },
      "api_key": {
        "type": "string",
        "title": "API key",
        "airbyte_secret": true
      },
      "page_size": {
        "type": "integer",
        "title": "Page size",
        "default": 100
      }
    },
    "required": ["base_url", "api_key"]
  }
}
`;

function CreateDefinitionPage() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [name, setName] = useState('');
  const [type, setType] = useState<IntegrationType>('Api');
  const [isPublic, setIsPublic] = useState(true);
  const [docs, setDocs] = useState('');
  const [specification, setSpecification] = useState(STARTER);
  const [nameTouched, setNameTouched] = useState(false);
  const { state, parsed } = useSpecificationCheck(specification);
  const create = trpc.admin.createDefinition.useMutation({
    onSuccess: async () => {
      await Promise.all([utils.admin.definitions.invalidate(), utils.integrations.definitions.invalidate()]);
      notifications.show({ color: 'green', message: `Integration definition '${name.trim()}' created.` });
      await navigate({ to: '/admin/integration/definitions' });
    },
  });

  const nameError = nameTouched && name.trim() === '' ? 'Name is required.' : undefined;
  const blocked =
    name.trim() === ''
      ? 'Give the definition a name.'
      : state.status === 'checking'
        ? 'Checking the specification…'
        : state.status !== 'valid'
          ? 'Fix the specification first.'
          : null;

  const save = () => {
    setNameTouched(true);
    if (blocked) return;
    create.mutate({
      name: name.trim(),
      type,
      isPublic,
      docs: docs.trim() === '' ? null : docs,
      icon: null,
      specification,
    });
  };

  return (
    <Stack maw={ADMIN_PAGE_WIDTH} gap="lg">
      <BreadcrumbBar title="Create integration definition" />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Paper p="lg">
              <Stack gap="md">
                <TextInput
                  label="Name"
                  withAsterisk
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                  onBlur={() => setNameTouched(true)}
                  error={nameError}
                  maxLength={100}
                  data-autofocus
                />
                <Group grow align="flex-start" wrap="wrap">
                  <Select
                    label="Type"
                    description="Which of the server's connectors reads its data."
                    data={[...INTEGRATION_TYPES]}
                    value={type}
                    onChange={(v) => v && setType(v as IntegrationType)}
                    allowDeselect={false}
                    miw={200}
                  />
                  <Checkbox
                    mt={{ base: 0, sm: 'xl' }}
                    label="Public"
                    description="Offered to every account; otherwise only in your current account."
                    checked={isPublic}
                    onChange={(e) => setIsPublic(e.currentTarget.checked)}
                    miw={200}
                  />
                </Group>
                <Textarea
                  label="Docs"
                  description="Optional. Shown beside the form when users add this integration."
                  autosize
                  minRows={2}
                  maxRows={8}
                  value={docs}
                  onChange={(e) => setDocs(e.currentTarget.value)}
                />
                <SpecificationEditor value={specification} onChange={setSpecification} check={state} />
                <Group justify="flex-end" gap="sm">
                  <Button variant="default" onClick={() => void navigate({ to: '/admin/integration/definitions' })}>
                    Cancel
                  </Button>
                  <Button
                    type="submit"
                    loading={create.isPending}
                    disabled={blocked !== null}
                    title={blocked ?? undefined}
                  >
                    Save definition
                  </Button>
                </Group>
              </Stack>
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <DefinitionPreview specification={parsed} text={specification} />
          </Grid.Col>
        </Grid>
      </form>
    </Stack>
  );
}

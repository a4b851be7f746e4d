import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { ConfigurationFields } from '../-integrations/configuration-fields';
import { useSettingsForm } from '../-integrations/use-settings-form';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The configuration form a specification produces, drawn by the same components as the create
 * integration page, so what is seen here is what users will fill in. It can be tried: required
 * fields and patterns are checked as on the real form.
 */
export function DefinitionPreview({ specification, text }: { specification: unknown; text: string }) {
  const settings = isObject(specification) ? specification.settings : undefined;
  const readable = isObject(settings) && isObject(settings.properties);
  return (
    <Paper p="lg" withBorder aria-label="Form preview" component="section">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={3} size="h5">
            Form preview
          </Title>
          <Text size="xs" c="dimmed">
            The form users fill in when they add an integration from this definition.
          </Text>
        </Stack>
        {readable ? (
          // A new form for each text: the form keeps its starting draft for its life.
          <PreviewForm key={text} settings={settings} />
        ) : (
          <Alert color="gray" variant="light">
            The preview appears once the specification is JSON with settings.properties.
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function PreviewForm({ settings }: { settings: unknown }) {
  const form = useSettingsForm(settings);
  if (form.fields.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No fields: settings.properties is empty.
      </Text>
    );
  return (
    <Stack gap="md">
      <ConfigurationFields form={form} />
    </Stack>
  );
}

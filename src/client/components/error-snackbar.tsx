import { Anchor, Code, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { TIMINGS } from '../../shared/limits';
import { ReportButton } from './report-button';

function SnackbarBody({ message, error }: { message: string; error: unknown }) {
  const [expanded, setExpanded] = useState(false);
  const details = error instanceof Error ? (error.stack ?? error.message) : String(error ?? '');
  return (
    <Stack gap={6}>
      <Text size="sm">{message}</Text>
      {expanded && details && (
        <Code block style={{ maxHeight: 160, overflow: 'auto', fontSize: 11 }}>
          {details}
        </Code>
      )}
      <Group gap="sm">
        <Anchor component="button" type="button" size="xs" onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'Show less' : 'Show more'}
        </Anchor>
        <ReportButton report={{ message, error }} size="compact-xs" variant="light" />
      </Group>
    </Stack>
  );
}

/** The error snackbar: message, 'Show more', 'Report issue' and close; gone after 5 s. */
export function showErrorSnackbar(message: string, error?: unknown): void {
  notifications.show({
    color: 'red',
    title: 'Error',
    message: <SnackbarBody message={message} error={error} />,
    autoClose: TIMINGS.snackbarMs,
    withCloseButton: true,
  });
}

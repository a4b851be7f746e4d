import { ActionIcon, CopyButton, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { Integration } from '../../../shared/integrations';

/** Spec §2: incoming mail accepts these attachment types. */
const EMAIL_FILE_TYPES = 'CSV, JSON, XML, Parquet and Avro';

/** Where a Webhook or Incoming e-mail integration receives its data. */
export function PushAddress({ integration }: { integration: Integration }) {
  const isEmail = integration.type === 'IncomingEmail';
  const address = isEmail
    ? integration.emailAddress
    : integration.webhookUrl && new URL(integration.webhookUrl, window.location.origin).toString();
  const hasData = integration.datasets.some((d) => d.hasData);
  return (
    <Paper p="md" withBorder>
      <Text size="sm" c="dimmed">
        {isEmail ? 'E-mail address' : 'Webhook address'}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Text ff="monospace" fw={500} data-testid="push-address" style={{ wordBreak: 'break-all' }}>
          {address ?? (isEmail ? '-- Email missing --' : '-')}
        </Text>
        {address && (
          <CopyButton value={address} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy'}>
                <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label="Copy address">
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        )}
      </Group>
      {isEmail && !hasData && (
        <Text size="xs" c="dimmed" mt={4}>
          Allowed file types: {EMAIL_FILE_TYPES}
        </Text>
      )}
    </Paper>
  );
}

import { ActionIcon, CopyButton, Group, Paper, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { Integration } from '../../../shared/integrations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';

/** Spec §2: incoming mail accepts these attachment types. */
const EMAIL_FILE_TYPES = 'CSV, JSON, XML, Parquet and Avro';

/** What a read_only member sees instead: the address writes data into the account. */
export const ADDRESS_HIDDEN = 'Only owners and admins of this account can see this address.';

/**
 * Where a Webhook or Incoming e-mail integration receives its data. The server sends the address
 * only to writers (owner, admin); others see that it is hidden, and no copy button.
 */
export function PushAddress({ integration, canSee }: { integration: Integration; canSee: boolean }) {
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
      {canSee ? (
        <Group gap="xs" wrap="nowrap">
          <Text ff="monospace" fw={500} data-testid="push-address" style={{ wordBreak: 'break-all' }}>
            {address ?? (isEmail ? '-- Email missing --' : '-')}
          </Text>
          {address && (
            <CopyButton value={address} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy'}>
                  <ActionIcon
                    variant="subtle"
                    color={copied ? 'teal' : 'gray'}
                    onClick={copy}
                    aria-label="Copy address"
                  >
                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          )}
        </Group>
      ) : (
        <Text size="sm" data-testid="push-address-hidden">
          {ADDRESS_HIDDEN}
        </Text>
      )}
      {isEmail && !hasData && (
        <Text size="xs" c="dimmed" mt={4}>
          Allowed file types: {EMAIL_FILE_TYPES}
        </Text>
      )}
    </Paper>
  );
}

export const changeAddressPrompt = (integration: Integration) =>
  integration.type === 'IncomingEmail'
    ? 'Change the e-mail address? Mail sent to the current address will no longer be received; senders must use the new one.'
    : 'Change the webhook address? The current address stops working at once; senders must use the new one.';

/** "Change address": a new webhook token or e-mail address, after a confirmation. */
export function ChangeAddressDialog({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  const utils = trpc.useUtils();
  const rotate = trpc.integrations.rotateAddress.useMutation({
    onSuccess: async (changed) => {
      utils.integrations.get.setData({ id: integration.id }, changed);
      await utils.integrations.list.invalidate();
      notifications.show({ color: 'teal', message: 'The address was changed.' });
      onClose();
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  return (
    <ConfirmDialog
      opened
      danger
      message={changeAddressPrompt(integration)}
      loading={rotate.isPending}
      onCancel={onClose}
      onConfirm={() => rotate.mutate({ id: integration.id })}
    />
  );
}

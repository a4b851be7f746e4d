import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { SHARE_EXPIRY_CHOICES, type FileInfo } from '../../../shared/files';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';
import { PublicUrlButton } from './public-url-button';

const DAY_MS = 24 * 60 * 60_000;

/**
 * The create-public-URL dialog: the five expiry choices, then the new address with its copy
 * button. A failure shows the server's message in red (spec section 8).
 */
export function ShareDialog({ file, onClose }: { file: FileInfo | null; onClose: () => void }) {
  const [choice, setChoice] = useState('7');
  const utils = trpc.useUtils();
  const share = trpc.files.share.useMutation({
    meta: { silent: true },
    onSuccess: () => utils.files.list.invalidate(),
  });
  const close = () => {
    share.reset();
    setChoice('7');
    onClose();
  };
  const create = () => {
    if (!file) return;
    const days = choice === 'never' ? null : Number(choice);
    // The spec's request: {expiresAt}, a date-time that many days ahead, or null for never.
    share.mutate({ id: file.id, expiresAt: days === null ? null : new Date(Date.now() + days * DAY_MS).toISOString() });
  };
  return (
    <Modal opened={file !== null} onClose={close} title="Create public URL" centered>
      {share.data ? (
        <Stack>
          <Text size="sm">Anyone with this address can download {file?.name}.</Text>
          <PublicUrlButton url={share.data.downloadUrl} expiresAt={share.data.expiresAt} />
          <Group justify="flex-end">
            <Button onClick={close} data-autofocus>
              Done
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Radio.Group label="Expires" value={choice} onChange={setChoice}>
            <Stack gap="xs" mt="xs">
              {SHARE_EXPIRY_CHOICES.map((c) => (
                <Radio key={c.label} value={c.days === null ? 'never' : String(c.days)} label={c.label} />
              ))}
            </Stack>
          </Radio.Group>
          {share.isError && (
            <Text size="sm" c="red" role="alert">
              {errorMessage(share.error)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={create} loading={share.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

import { Button, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { formatDateTime } from '../../lib/format';

/** Spec section 9: the copy confirmation lasts 2 seconds. */
export const COPY_CONFIRMATION_MS = 2000;

/** Copies a public address; its label says when the address stops working. */
export function PublicUrlButton({ url, expiresAt }: { url: string; expiresAt: string | null }) {
  const label = expiresAt ? `Expires ${formatDateTime(expiresAt)}` : 'Never expires';
  return (
    <CopyButton value={url} timeout={COPY_CONFIRMATION_MS}>
      {({ copied, copy }) => (
        <Tooltip label={url} withArrow>
          <Button
            size="xs"
            variant={copied ? 'filled' : 'light'}
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            onClick={copy}
            aria-label={`Copy public URL (${label})`}
          >
            {copied ? 'Copied' : label}
          </Button>
        </Tooltip>
      )}
    </CopyButton>
  );
}

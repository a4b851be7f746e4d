import { Button, Code, CopyButton, Group, Modal, ScrollArea, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** Copy confirmation of the model SQL lasts 5 s (spec §9). */
const COPY_CONFIRM_MS = 5_000;

/** 'Show SQL': the SELECT the version's rows come from, exactly as it runs. */
export function SqlDialog({ opened, sql, onClose }: { opened: boolean; sql: string; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Raw SQL" size="xl">
      {sql ? (
        <ScrollArea.Autosize mah="60vh">
          <Code block fz="sm" aria-label="Model SQL">
            {sql}
          </Code>
        </ScrollArea.Autosize>
      ) : (
        <Text c="dimmed" size="sm">
          The model has no SQL yet: add a column.
        </Text>
      )}
      <Group justify="flex-end" mt="md">
        <CopyButton value={sql} timeout={COPY_CONFIRM_MS}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'light' : 'default'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              onClick={copy}
              disabled={!sql}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Modal>
  );
}

import { Button, Code, CopyButton, Group, ScrollArea, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { AUTOFOCUS, Dialog } from '../../components/dialog';

/** Copy confirmation of the model SQL lasts 5 s (spec §9). */
const COPY_CONFIRM_MS = 5_000;

/** 'Show SQL': the SELECT the version's rows come from, exactly as it runs. */
export function SqlDialog({ opened, sql, onClose }: { opened: boolean; sql: string; onClose: () => void }) {
  return (
    <Dialog opened={opened} onClose={onClose} title="Raw SQL" size="xl">
      {sql ? (
        <ScrollArea.Autosize
          mah="60vh"
          // Focused on open (a keyboard scrolls it with the arrows); Tab then reaches Copy.
          viewportProps={{ tabIndex: 0, 'aria-label': 'Model SQL', ...AUTOFOCUS }}
        >
          <Code block fz="sm">
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
    </Dialog>
  );
}

import { Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Dialog } from './dialog';

interface ConfirmDialogProps {
  opened: boolean;
  message: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  loading?: boolean;
  danger?: boolean;
}

/** The product's confirm dialog: titled Confirm, with Ok and Cancel. */
export function ConfirmDialog({ opened, message, onConfirm, onCancel, loading, danger }: ConfirmDialogProps) {
  return (
    <Dialog opened={opened} onClose={onCancel} title="Confirm" centered size="sm">
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={loading} data-autofocus>
          Ok
        </Button>
      </Group>
    </Dialog>
  );
}

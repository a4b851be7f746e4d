import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

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
    <Modal opened={opened} onClose={onCancel} title="Confirm" centered size="sm">
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={loading} data-autofocus>
          Ok
        </Button>
      </Group>
    </Modal>
  );
}

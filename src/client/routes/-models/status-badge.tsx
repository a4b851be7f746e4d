import { Badge } from '@mantine/core';
import type { ModelStatus } from '../../../shared/models';

const COLORS: Record<ModelStatus, string> = { Active: 'teal', Draft: 'yellow', Inactive: 'gray' };

export function StatusBadge({ status, label }: { status: ModelStatus; label?: string }) {
  return (
    <Badge variant="light" color={COLORS[status]}>
      {label ?? status}
    </Badge>
  );
}

import { Select } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import type { GridColumn } from './types';

/** 'Go to column': pick a column to scroll it into view and highlight it. */
export function GoToColumn({ columns, onGo }: { columns: GridColumn[]; onGo: (key: string) => void }) {
  return (
    <Select
      aria-label="Go to column"
      placeholder="Go to column"
      size="xs"
      w={180}
      searchable
      clearable
      value={null}
      leftSection={<IconColumns size={14} />}
      data={columns.map((c) => ({ value: c.key, label: c.name }))}
      onChange={(key) => key && onGo(key)}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

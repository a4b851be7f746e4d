import { Tooltip } from '@mantine/core';
import {
  IconBraces,
  IconBrackets,
  IconCalendar,
  IconCalendarTime,
  IconHash,
  IconLetterCase,
  IconToggleLeft,
  type Icon,
} from '@tabler/icons-react';
import { COLUMN_TYPE_LABELS } from '../../../shared/static-column-types';
import type { ColumnType } from '../../../shared/tables';

const ICONS: Record<ColumnType, Icon> = {
  Text: IconLetterCase,
  Number: IconHash,
  Boolean: IconToggleLeft,
  Date: IconCalendar,
  DateTime: IconCalendarTime,
  Array: IconBrackets,
  Json: IconBraces,
};

/** A column's type as a small icon (header, column settings), named for screen readers and on hover. */
export function ColumnTypeIcon({ type, size = 12 }: { type: ColumnType; size?: number }) {
  const TypeIcon = ICONS[type];
  const label = COLUMN_TYPE_LABELS[type] ?? type;
  return (
    <Tooltip label={label} openDelay={400}>
      <TypeIcon
        size={size}
        role="img"
        aria-label={`Type: ${label}`}
        data-column-type={type}
        style={{ flex: 'none', color: 'var(--mantine-color-gray-6)' }}
      />
    </Tooltip>
  );
}

import { ActionIcon, Group, Menu, Text, Tooltip } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowLeft,
  IconArrowRight,
  IconArrowUp,
  IconDots,
  IconFilter,
  IconSearch,
  IconSettings,
  IconSortAscending,
  IconSortDescending,
  IconTrash,
} from '@tabler/icons-react';
import type { Header } from '@tanstack/react-table';
import type { Sorting } from '../../../shared/tables';
import { ColumnTypeIcon } from './column-type-icon';
import { GRID } from './constants';
import type { GridColumn, GridRow } from './types';

interface HeaderCellProps {
  header: Header<GridRow, unknown>;
  column: GridColumn;
  sort: Sorting | undefined;
  highlighted: boolean;
  onSearch: () => void;
  onFilter: () => void;
  onSort: (direction: Sorting['direction']) => void;
  onSettings?: () => void;
  onDelete?: () => void;
  /** Moves the column one place left (-1) or right (+1); absent where columns cannot move. */
  onMove?: (step: -1 | 1) => void;
  canMoveLeft?: boolean;
  canMoveRight?: boolean;
}

/** A column header: name, sort mark, context menu and a resize handle on its right edge. */
export function HeaderCell({
  header,
  column,
  sort,
  highlighted,
  onSearch,
  onFilter,
  onSort,
  onSettings,
  onDelete,
  onMove,
  canMoveLeft,
  canMoveRight,
}: HeaderCellProps) {
  const width = header.getSize();
  return (
    <div
      role="columnheader"
      aria-label={column.name}
      data-column-key={column.key}
      style={{
        width,
        height: GRID.headerHeight,
        position: 'relative',
        flex: 'none',
        borderRight: '1px solid var(--mantine-color-gray-3)',
        background: highlighted ? 'var(--mantine-color-yellow-1)' : 'var(--mantine-color-gray-1)',
        transition: 'background 300ms',
        padding: '0 4px 0 8px',
      }}
    >
      <Group h="100%" gap={4} wrap="nowrap" justify="space-between">
        <ColumnTypeIcon type={column.type} />
        <Tooltip label={column.description || column.name} openDelay={600} disabled={!column.description}>
          <Text size="xs" fw={600} truncate style={{ flex: 1 }}>
            {column.name}
          </Text>
        </Tooltip>
        {sort && (sort.direction === 'Ascending' ? <IconArrowUp size={12} /> : <IconArrowDown size={12} />)}
        <Menu position="bottom-end" shadow="md" withinPortal>
          <Menu.Target>
            <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Column menu ${column.name}`}>
              <IconDots size={12} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconSearch size={14} />} onClick={onSearch}>
              Search in column
            </Menu.Item>
            <Menu.Item leftSection={<IconFilter size={14} />} onClick={onFilter}>
              Filter for column
            </Menu.Item>
            {onSettings && (
              <Menu.Item leftSection={<IconSettings size={14} />} onClick={onSettings}>
                Column settings
              </Menu.Item>
            )}
            <Menu.Divider />
            <Menu.Item leftSection={<IconSortAscending size={14} />} onClick={() => onSort('Ascending')}>
              Sort ascending
            </Menu.Item>
            <Menu.Item leftSection={<IconSortDescending size={14} />} onClick={() => onSort('Descending')}>
              Sort descending
            </Menu.Item>
            {onMove && (
              <>
                <Menu.Divider />
                <Menu.Item leftSection={<IconArrowLeft size={14} />} disabled={!canMoveLeft} onClick={() => onMove(-1)}>
                  Move left
                </Menu.Item>
                <Menu.Item
                  leftSection={<IconArrowRight size={14} />}
                  disabled={!canMoveRight}
                  onClick={() => onMove(1)}
                >
                  Move right
                </Menu.Item>
              </>
            )}
            {onDelete && (
              <>
                <Menu.Divider />
                <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
                  Delete column
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <div
        role="separator"
        aria-label={`Resize ${column.name}`}
        onMouseDown={header.getResizeHandler()}
        onTouchStart={header.getResizeHandler()}
        style={{
          position: 'absolute',
          right: -3,
          top: 0,
          width: 6,
          height: '100%',
          cursor: 'col-resize',
          zIndex: 2,
          background: header.column.getIsResizing() ? 'var(--mantine-color-blue-4)' : 'transparent',
        }}
      />
    </div>
  );
}

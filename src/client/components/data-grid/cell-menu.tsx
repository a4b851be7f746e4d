import { Menu } from '@mantine/core';
import { IconFilter, IconRowRemove, IconZoomCode } from '@tabler/icons-react';

interface CellMenuProps {
  /** Where the right-click happened, in viewport pixels. */
  x: number;
  y: number;
  inspectable: boolean;
  onClose: () => void;
  onFilterForValue: () => void;
  onInspect: () => void;
  /** Shown only where rows can be deleted. */
  onDeleteRow?: () => void;
}

/** The cell's context menu: Filter for value, Inspect Value and, in editable tables, Delete row. */
export function CellMenu({ x, y, inspectable, onClose, onFilterForValue, onInspect, onDeleteRow }: CellMenuProps) {
  return (
    <Menu opened onChange={(opened) => !opened && onClose()} position="bottom-start" shadow="md" withinPortal>
      <Menu.Target>
        <div style={{ position: 'fixed', left: x, top: y, width: 1, height: 1 }} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFilter size={14} />} onClick={onFilterForValue}>
          Filter for value
        </Menu.Item>
        <Menu.Item leftSection={<IconZoomCode size={14} />} disabled={!inspectable} onClick={onInspect}>
          Inspect Value
        </Menu.Item>
        {onDeleteRow && (
          <Menu.Item color="red" leftSection={<IconRowRemove size={14} />} onClick={onDeleteRow}>
            Delete row
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

import { Menu } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconRowRemove } from '@tabler/icons-react';

interface RowMenuProps {
  /** Where the right-click on the row number happened, in viewport pixels. */
  x: number;
  y: number;
  rowNumber: number;
  onClose: () => void;
  /** Absent where rows cannot move (read-only grids). */
  onMove?: (step: -1 | 1) => void;
  canMoveUp: boolean;
  canMoveDown: boolean;
  /** Why moving is off (e.g. a sort decides the order); shown in place of a silent grey item. */
  moveHint?: string;
  onDelete?: () => void;
}

/** The row-number gutter's context menu: Move row up, Move row down (Alt+↑/↓) and Delete row. */
export function RowMenu({
  x,
  y,
  rowNumber,
  onClose,
  onMove,
  canMoveUp,
  canMoveDown,
  moveHint,
  onDelete,
}: RowMenuProps) {
  return (
    <Menu opened onChange={(opened) => !opened && onClose()} position="bottom-start" shadow="md" withinPortal>
      <Menu.Target>
        <div style={{ position: 'fixed', left: x, top: y, width: 1, height: 1 }} />
      </Menu.Target>
      <Menu.Dropdown aria-label={`Row ${rowNumber}`}>
        <Menu.Label>Row {rowNumber}</Menu.Label>
        {onMove && (
          <>
            <Menu.Item
              leftSection={<IconArrowUp size={14} />}
              rightSection={<Shortcut keys="Alt+↑" />}
              disabled={!canMoveUp}
              onClick={() => onMove(-1)}
            >
              Move row up
            </Menu.Item>
            <Menu.Item
              leftSection={<IconArrowDown size={14} />}
              rightSection={<Shortcut keys="Alt+↓" />}
              disabled={!canMoveDown}
              onClick={() => onMove(1)}
            >
              Move row down
            </Menu.Item>
            {moveHint && <Menu.Label fw={400}>{moveHint}</Menu.Label>}
          </>
        )}
        {onDelete && (
          <>
            {onMove && <Menu.Divider />}
            <Menu.Item color="red" leftSection={<IconRowRemove size={14} />} onClick={onDelete}>
              Delete row
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

function Shortcut({ keys }: { keys: string }) {
  return <span style={{ fontSize: 11, color: 'var(--mantine-color-dimmed)', marginLeft: 12 }}>{keys}</span>;
}

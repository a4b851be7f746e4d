import { ActionIcon, Group, Paper, Stack, Text } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';

interface PivotFieldListProps<T> {
  /** Names the list's drags, so an item cannot be dropped into another section. */
  section: string;
  items: readonly T[];
  /** What an item is called for its handle's label ("Move Customer"). */
  itemLabel: (item: T, index: number) => string;
  renderItem: (item: T, index: number) => ReactNode;
  onMove: (from: number, to: number) => void;
  emptyText: string;
}

/**
 * A section's fields, reordered by dragging their handle (native drag and drop: the item takes the
 * place of the one it is dropped on) or with the arrow keys on the handle.
 */
export function PivotFieldList<T>({
  section,
  items,
  itemLabel,
  renderItem,
  onMove,
  emptyText,
}: PivotFieldListProps<T>) {
  const type = `application/x-pivot-${section}`;
  // The item whose handle is held: only then is it draggable, so text in its inputs stays selectable.
  const [armed, setArmed] = useState<number | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const reset = () => {
    setArmed(null);
    setDragged(null);
    setOver(null);
  };

  if (items.length === 0) {
    return (
      <Text size="xs" c="dimmed" fs="italic" py={4}>
        {emptyText}
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      {items.map((item, index) => {
        const target = over === index && dragged !== null && dragged !== index;
        const edge = target ? (dragged < index ? 'bottom' : 'top') : null;
        return (
          <Paper
            key={index}
            withBorder
            p={6}
            radius="sm"
            draggable={armed === index}
            data-dragging={dragged === index || undefined}
            onDragStart={(e) => {
              e.dataTransfer.setData(type, String(index));
              e.dataTransfer.effectAllowed = 'move';
              setDragged(index);
            }}
            onDragEnd={reset}
            onDragOver={(e) => {
              if (!e.dataTransfer.types.includes(type)) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
              if (over !== index) setOver(index);
            }}
            onDrop={(e) => {
              const from = Number(e.dataTransfer.getData(type));
              e.preventDefault();
              reset();
              if (Number.isInteger(from) && from !== index) onMove(from, index);
            }}
            style={{
              opacity: dragged === index ? 0.5 : 1,
              boxShadow: edge ? `inset 0 ${edge === 'top' ? 3 : -3}px 0 0 var(--mantine-color-blue-5)` : undefined,
            }}
          >
            <Group gap={6} wrap="nowrap" align="flex-start">
              <ActionIcon
                variant="subtle"
                color="gray"
                size="md"
                mt={2}
                aria-label={`Move ${itemLabel(item, index)}`}
                title="Drag to reorder (or use the arrow keys)"
                style={{ cursor: 'grab' }}
                onMouseDown={() => setArmed(index)}
                onMouseUp={() => setArmed(null)}
                onKeyDown={(e) => {
                  const step = e.key === 'ArrowUp' ? -1 : e.key === 'ArrowDown' ? 1 : 0;
                  const to = index + step;
                  if (step === 0 || to < 0 || to >= items.length) return;
                  e.preventDefault();
                  onMove(index, to);
                }}
              >
                <IconGripVertical size={16} />
              </ActionIcon>
              <div style={{ flex: 1, minWidth: 0 }}>{renderItem(item, index)}</div>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}

import { ActionIcon, Badge, Button, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconFunction, IconNumber, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formulaForDisplay } from '../../../shared/formula-text';
import { COLUMN_TYPES } from '../../../shared/tables';
import type { Model, ModelColumn } from '../../../shared/models';
import { SaveOnBlurInput } from '../../components/save-on-blur-input';
import { FormatDialog } from './format-dialog';
import { FunctionEditor } from './function-editor';
import { formulaBlocker, useFormulaCheck } from './use-formula-check';
import type { ModelHandle } from './use-model';
import { Dialog } from '../../components/dialog';

/** 'Edit existing columns': rename, convert, reorder, delete; function columns open their editor. */
export function EditColumnsView({ model, handle }: { model: Model; handle: ModelHandle }) {
  const [editing, setEditing] = useState<ModelColumn | null>(null);
  const [formatting, setFormatting] = useState<ModelColumn | null>(null);
  const keys = model.columns.map((c) => c.columnKey);
  const move = (index: number, by: -1 | 1) => {
    const next = [...keys];
    const [key] = next.splice(index, 1);
    next.splice(index + by, 0, key as string);
    handle.reorderColumns.mutate({ id: model.id, columnKeys: next });
  };
  if (model.columns.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No columns yet: add one under Add column.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {model.columns.map((column, index) => (
        <Paper key={column.columnKey} withBorder p="xs" bg={column.error ? 'var(--mantine-color-red-0)' : undefined}>
          <Group gap="xs" wrap="nowrap">
            <SaveOnBlurInput
              aria-label={`Name of ${column.displayName}`}
              value={column.displayName}
              size="xs"
              style={{ flex: 1 }}
              onSave={(displayName) =>
                handle.updateColumn.mutateAsync({ id: model.id, columnKey: column.columnKey, changes: { displayName } })
              }
            />
            <Badge variant="light" color="gray" w={90}>
              {column.type}
            </Badge>
            {column.function ? (
              <Tooltip label="Edit function column">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Edit formula of ${column.displayName}`}
                  onClick={() => setEditing(column)}
                >
                  <IconFunction size={16} />
                </ActionIcon>
              </Tooltip>
            ) : (
              <Select
                aria-label={`Convert ${column.displayName}`}
                size="xs"
                w={120}
                placeholder="Convert to"
                clearable
                data={COLUMN_TYPES.filter((t) => t !== 'Json' && t !== 'Array')}
                value={column.castTo}
                onChange={(castTo) =>
                  handle.updateColumn.mutate({ id: model.id, columnKey: column.columnKey, changes: { castTo } })
                }
              />
            )}
            {column.type === 'Number' && (
              <Tooltip label="Format">
                <ActionIcon
                  variant="subtle"
                  color={column.format ? 'blue' : 'gray'}
                  aria-label={`Format ${column.displayName}`}
                  onClick={() => setFormatting(column)}
                >
                  <IconNumber size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label="Move up"
              disabled={index === 0}
              onClick={() => move(index, -1)}
            >
              <IconArrowUp size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label="Move down"
              disabled={index === model.columns.length - 1}
              onClick={() => move(index, 1)}
            >
              <IconArrowDown size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${column.displayName}`}
              onClick={() => handle.deleteColumn.mutate({ id: model.id, columnKey: column.columnKey })}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
          {column.function && (
            <Text size="xs" c="dimmed" ff="monospace" mt={4} style={{ wordBreak: 'break-word' }}>
              = {formulaForDisplay(column.function, model.columns)}
            </Text>
          )}
          {column.error && (
            <Text size="xs" c="red" mt={4}>
              {column.error.message}
            </Text>
          )}
        </Paper>
      ))}
      {formatting && (
        <FormatDialog
          column={formatting}
          saving={handle.updateColumn.isPending}
          onClose={() => setFormatting(null)}
          onSave={(format) =>
            handle.updateColumn.mutate(
              { id: model.id, columnKey: formatting.columnKey, changes: { format } },
              { onSuccess: () => setFormatting(null) },
            )
          }
        />
      )}
      {editing && <FunctionDialog model={model} column={editing} handle={handle} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function FunctionDialog({
  model,
  column,
  handle,
  onClose,
}: {
  model: Model;
  column: ModelColumn;
  handle: ModelHandle;
  onClose: () => void;
}) {
  // Edited as people read it: columns by their current names; saved back as keys by the server.
  const shown = formulaForDisplay(column.function ?? '', model.columns);
  const [formula, setFormula] = useState(shown);
  const check = useFormulaCheck(model, formula, column.columnKey);
  const unchanged = formula === shown;
  const blocked = unchanged ? null : formulaBlocker(check);
  return (
    <Dialog opened onClose={onClose} title={`Edit function column: ${column.displayName}`} size="lg">
      <FunctionEditor model={model} value={formula} onChange={setFormula} check={check} columnKey={column.columnKey} />
      <Group justify="flex-end" mt="md" gap="sm">
        {blocked && (
          <Text size="xs" c="dimmed" role="status">
            {blocked}
          </Text>
        )}
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          disabled={unchanged || blocked !== null}
          loading={handle.updateColumn.isPending}
          onClick={() =>
            handle.updateColumn.mutate(
              { id: model.id, columnKey: column.columnKey, changes: { function: formula } },
              { onSuccess: onClose },
            )
          }
        >
          Save
        </Button>
      </Group>
    </Dialog>
  );
}

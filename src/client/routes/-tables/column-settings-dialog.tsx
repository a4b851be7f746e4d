import { Alert, Button, Divider, Group, NumberInput, Stack, Text, TextInput, Textarea, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { ColumnFormat } from '../../../shared/models';
import type { StaticColumnType } from '../../../shared/static-column-types';
import type { StaticTableColumn } from '../../../shared/static-tables';
import { errorMessage } from '../../lib/error-message';
import { trpc, trpcClient } from '../../trpc';
import { ColumnTypeField, TYPE_PREVIEW_STALE_MS } from './column-type-field';
import { NumberFormatFields } from './number-format-fields';
import { Dialog } from '../../components/dialog';

interface SettingsPatch {
  displayName: string;
  description: string | null;
  format: ColumnFormat | null;
}

const sameFormat = (a: ColumnFormat | null | undefined, b: ColumnFormat | null | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Column settings: Name, Description, Order (read-only), Type (with a preview of the values that
 * would not convert) and, for numbers, Formatting. A read_only member sees them without controls.
 */
export function ColumnSettingsDialog({
  tableId,
  column,
  readOnly,
  saveSettings,
  onTypeChanged,
  onClose,
}: {
  tableId: string;
  column: StaticTableColumn;
  readOnly: boolean;
  saveSettings: (patch: SettingsPatch) => Promise<unknown>;
  /** The type changed; Undo restores the copy the server kept (`keptToken`). */
  onTypeChanged: (keptToken: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(column.displayName);
  const [description, setDescription] = useState(column.description ?? '');
  const [type, setType] = useState(column.type);
  const [confirmed, setConfirmed] = useState(false);
  const [format, setFormat] = useState<ColumnFormat | null>(column.format ?? null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const typeChanges = type !== column.type;
  const showFormat = type === 'Number';
  const nextFormat = showFormat ? format : null;

  const save = async () => {
    if (!name.trim()) return;
    setSaving(true);
    setError(null);
    try {
      const patch = { displayName: name.trim(), description: description.trim() || null, format: nextFormat };
      const settingsChange =
        patch.displayName !== column.displayName ||
        patch.description !== (column.description ?? null) ||
        (!typeChanges && !sameFormat(patch.format, column.format));
      // Settings first: a change after the type change would drop the copy its Undo restores.
      if (settingsChange || (typeChanges && !sameFormat(patch.format, column.format))) await saveSettings(patch);
      if (typeChanges) {
        const changed = await trpcClient.staticTables.changeColumnType.mutate({
          id: tableId,
          columnKey: column.columnKey,
          type: type as StaticColumnType,
          clearUnconvertible: confirmed,
        });
        await onTypeChanged(changed.keptToken);
      }
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog opened onClose={onClose} title="Column settings" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!readOnly) void save();
        }}
      >
        <Stack>
          <TextInput
            label="Name"
            value={name}
            readOnly={readOnly}
            onChange={(e) => setName(e.currentTarget.value)}
            error={name.trim() ? null : 'Name cannot be empty.'}
            data-autofocus
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            readOnly={readOnly}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <NumberInput label="Order" value={column.order} readOnly variant="filled" />
          <ColumnTypeField
            tableId={tableId}
            columnKey={column.columnKey}
            current={column.type}
            type={type}
            onType={(next: StaticColumnType) => {
              setType(next);
              setConfirmed(false);
            }}
            confirmed={confirmed}
            onConfirmed={setConfirmed}
            disabled={readOnly || saving}
          />
          {showFormat && (
            <>
              <Divider label="Formatting" labelPosition="left" />
              <NumberFormatFields format={format} onChange={setFormat} disabled={readOnly || saving} />
            </>
          )}
          {!showFormat && (
            <Text size="sm" c="dimmed">
              Formatting: none (number columns can be formatted).
            </Text>
          )}
          {error && (
            <Alert color="red" p="xs" role="alert">
              <Text size="sm">{error}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {readOnly ? 'Close' : 'Cancel'}
            </Button>
            {!readOnly && (
              <SaveButton
                saving={saving}
                disabledReason={!name.trim() ? 'Name cannot be empty.' : null}
                needsConfirmation={typeChanges && !confirmed}
                tableId={tableId}
                columnKey={column.columnKey}
                type={typeChanges ? (type as StaticColumnType) : null}
              />
            )}
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

/** Save, held back while values would become empty without the user's confirmation. */
function SaveButton({
  saving,
  disabledReason,
  needsConfirmation,
  tableId,
  columnKey,
  type,
}: {
  saving: boolean;
  disabledReason: string | null;
  needsConfirmation: boolean;
  tableId: string;
  columnKey: string;
  type: StaticColumnType | null;
}) {
  // The same query as the type field's preview (shared in the query cache).
  const preview = trpc.staticTables.columnTypePreview.useQuery(
    { id: tableId, columnKey, type: type ?? 'Text' },
    { enabled: type !== null, staleTime: TYPE_PREVIEW_STALE_MS },
  );
  const waiting = type !== null && !preview.data;
  const blocked = needsConfirmation && (preview.data?.unconvertible ?? 0) > 0;
  const reason = disabledReason ?? (blocked ? 'Confirm that the values that cannot be converted become empty.' : null);
  return (
    <Tooltip label={reason} disabled={!reason}>
      <Button type="submit" disabled={Boolean(reason) || waiting} loading={saving}>
        Save
      </Button>
    </Tooltip>
  );
}

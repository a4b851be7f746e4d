import { Button, Checkbox, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ColumnFormat, ModelColumn } from '../../../shared/models';
import { formatNumber } from '../../../shared/number-format';
import { Dialog } from '../../components/dialog';

const DEFAULT_FORMAT: ColumnFormat = {
  multiplyBy: null,
  style: 'Number',
  thousandSeparator: true,
  decimalPlaces: null,
  prefix: '',
  suffix: '',
};

/** A number column's Format: multiply factor, Number or Percent, separators, decimals, prefix, suffix. */
export function FormatDialog({
  column,
  saving,
  onSave,
  onClose,
}: {
  column: ModelColumn;
  saving: boolean;
  onSave: (format: ColumnFormat | null) => void;
  onClose: () => void;
}) {
  const [format, setFormat] = useState<ColumnFormat>(column.format ?? DEFAULT_FORMAT);
  const set = (patch: Partial<ColumnFormat>) => setFormat((f) => ({ ...f, ...patch }));
  const numberOrNull = (v: string | number) => (typeof v === 'number' ? v : null);
  return (
    <Dialog opened onClose={onClose} title={`Format: ${column.displayName}`}>
      <Stack gap="sm">
        <SegmentedControl
          data={['Number', 'Percent']}
          value={format.style}
          onChange={(style) => set({ style: style as ColumnFormat['style'] })}
        />
        <Group grow>
          <NumberInput
            label="Multiply by"
            placeholder="1"
            value={format.multiplyBy ?? ''}
            onChange={(v) => set({ multiplyBy: numberOrNull(v) })}
          />
          <NumberInput
            label="Decimal places"
            placeholder="As stored"
            min={0}
            max={10}
            value={format.decimalPlaces ?? ''}
            onChange={(v) => set({ decimalPlaces: numberOrNull(v) })}
          />
        </Group>
        <Group grow>
          <TextInput
            label="Prefix"
            maxLength={20}
            value={format.prefix}
            onChange={(e) => set({ prefix: e.currentTarget.value })}
          />
          <TextInput
            label="Suffix"
            maxLength={20}
            value={format.suffix}
            onChange={(e) => set({ suffix: e.currentTarget.value })}
          />
        </Group>
        <Checkbox
          label="Thousand separator"
          checked={format.thousandSeparator}
          onChange={(e) => set({ thousandSeparator: e.currentTarget.checked })}
        />
        <Text size="sm" c="dimmed">
          Example: {formatNumber(1234.5678, format)}
        </Text>
      </Stack>
      <Group justify="space-between" mt="lg">
        <Button variant="subtle" color="gray" onClick={() => onSave(null)} loading={saving}>
          No format
        </Button>
        <Group>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onSave(format)} loading={saving}>
            Save
          </Button>
        </Group>
      </Group>
    </Dialog>
  );
}

import { Checkbox, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { ColumnFormat } from '../../../shared/models';
import { formatNumber } from '../../../shared/number-format';

export const DEFAULT_NUMBER_FORMAT: ColumnFormat = {
  multiplyBy: null,
  style: 'Number',
  thousandSeparator: true,
  decimalPlaces: null,
  prefix: '',
  suffix: '',
};

/**
 * A number column's format, as a model column's Format dialog sets it (routes/-models/format-dialog.tsx):
 * Number or Percent, decimal places, thousand separator, a prefix and suffix (a currency sign), and
 * a multiply factor. Null is no format (numbers shown as they are).
 */
export function NumberFormatFields({
  format,
  onChange,
  disabled,
}: {
  format: ColumnFormat | null;
  onChange: (format: ColumnFormat | null) => void;
  disabled?: boolean;
}) {
  const current = format ?? DEFAULT_NUMBER_FORMAT;
  const set = (patch: Partial<ColumnFormat>) => onChange({ ...current, ...patch });
  const numberOrNull = (v: string | number) => (typeof v === 'number' ? v : null);
  return (
    <Stack gap="xs">
      <Checkbox
        label="Format numbers"
        checked={format !== null}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.checked ? DEFAULT_NUMBER_FORMAT : null)}
      />
      {format && (
        <>
          <SegmentedControl
            data={['Number', 'Percent']}
            value={format.style}
            disabled={disabled}
            aria-label="Number style"
            onChange={(style) => set({ style: style as ColumnFormat['style'] })}
          />
          <Group grow align="flex-start">
            <NumberInput
              label="Decimal places"
              placeholder="As stored"
              min={0}
              max={10}
              disabled={disabled}
              value={format.decimalPlaces ?? ''}
              onChange={(v) => set({ decimalPlaces: numberOrNull(v) })}
            />
            <NumberInput
              label="Multiply by"
              placeholder="1"
              disabled={disabled}
              value={format.multiplyBy ?? ''}
              onChange={(v) => set({ multiplyBy: numberOrNull(v) })}
            />
          </Group>
          <Group grow align="flex-start">
            <TextInput
              label="Prefix"
              description="e.g. $ or €"
              maxLength={20}
              disabled={disabled}
              value={format.prefix}
              onChange={(e) => set({ prefix: e.currentTarget.value })}
            />
            <TextInput
              label="Suffix"
              description="e.g. kr or USD"
              maxLength={20}
              disabled={disabled}
              value={format.suffix}
              onChange={(e) => set({ suffix: e.currentTarget.value })}
            />
          </Group>
          <Checkbox
            label="Thousand separator"
            checked={format.thousandSeparator}
            disabled={disabled}
            onChange={(e) => set({ thousandSeparator: e.currentTarget.checked })}
          />
          <Text size="sm" c="dimmed" data-testid="format-example">
            Example: {formatNumber(1234.5678, format)}
          </Text>
        </>
      )}
    </Stack>
  );
}

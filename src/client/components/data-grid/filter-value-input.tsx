import { NumberInput, Select, TextInput } from '@mantine/core';
import { INSIDE_POPOVER } from './constants';
import type { ColumnType } from '../../../shared/tables';

export const VALUE_REQUIRED = 'Please enter a value';

type FilterValue = string | number | boolean | null | undefined;

/** "2024-05-01T09:30" from a datetime-local input, as ISO text with this browser's zone offset. */
export function localDateTimeToIso(local: string): string {
  const date = new Date(local.length === 10 ? `${local}T00:00` : local);
  if (Number.isNaN(date.getTime())) return local;
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const base = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:00`;
  return `${base}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The value box of one filter: the input matching the column's type. */
export function FilterValueInput({
  type,
  value,
  onChange,
  label,
  showError,
}: {
  type: ColumnType;
  value: FilterValue;
  onChange: (value: FilterValue) => void;
  label: string;
  showError: boolean;
}) {
  const empty = value === undefined || value === null || value === '';
  const error = showError && empty ? VALUE_REQUIRED : undefined;
  if (type === 'Number') {
    return (
      <NumberInput
        aria-label={label}
        placeholder="Value"
        value={typeof value === 'number' ? value : typeof value === 'string' ? value : ''}
        onChange={(v) => onChange(v === '' ? null : v)}
        error={error}
        size="xs"
        w={140}
      />
    );
  }
  if (type === 'Boolean') {
    return (
      <Select
        comboboxProps={INSIDE_POPOVER}
        aria-label={label}
        data={['true', 'false']}
        value={value === undefined || value === null ? null : String(value)}
        onChange={(v) => onChange(v === null ? null : v === 'true')}
        error={error}
        size="xs"
        w={140}
      />
    );
  }
  if (type === 'Date') {
    return (
      <TextInput
        aria-label={label}
        type="date"
        value={typeof value === 'string' ? value.slice(0, 10) : ''}
        onChange={(e) => onChange(e.currentTarget.value || null)}
        error={error}
        size="xs"
        w={160}
      />
    );
  }
  if (type === 'DateTime') {
    return (
      <TextInput
        aria-label={label}
        type="datetime-local"
        value={typeof value === 'string' ? isoToLocalInput(value) : ''}
        onChange={(e) => onChange(e.currentTarget.value ? localDateTimeToIso(e.currentTarget.value) : null)}
        error={error}
        size="xs"
        w={210}
      />
    );
  }
  return (
    <TextInput
      aria-label={label}
      placeholder="Value"
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      size="xs"
      w={160}
    />
  );
}

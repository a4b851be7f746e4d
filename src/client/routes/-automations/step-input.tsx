import {
  Button,
  Checkbox,
  Group,
  Menu,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconBraces } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import type { InputOption, InputValue, StepInputSpec } from '../../../shared/automations';

interface StepInputProps {
  spec: StepInputSpec;
  value: InputValue;
  /** This input's allowed values (select, multiselect; suggestions otherwise). */
  options: InputOption[];
  /** Placeholders a template may use (trigger data, earlier steps' outputs). */
  placeholders: InputOption[];
  readOnly: boolean;
  onSave: (value: InputValue) => void;
}

/** Options with a group become Mantine's grouped data; the rest stay flat. */
function selectData(options: InputOption[]) {
  const groups = new Map<string, { value: string; label: string }[]>();
  const flat: { value: string; label: string }[] = [];
  for (const option of options) {
    const item = { value: option.value, label: option.label };
    if (option.group) groups.set(option.group, [...(groups.get(option.group) ?? []), item]);
    else flat.push(item);
  }
  return [...flat, ...[...groups].map(([group, items]) => ({ group, items }))];
}

const asText = (value: InputValue): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** A keyValue input as 'name: value' lines. */
const keyValueText = (value: InputValue): string =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value)
        .map(([key, v]) => `${key}: ${asText(v)}`)
        .join('\n')
    : '';
function parseKeyValue(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** A placeholder option's text as written in a template. */
const placeholderText = (option: InputOption) => (option.value.startsWith('{{') ? option.value : `{{${option.value}}}`);

/**
 * One input of a step, drawn from its kind's StepInputSpec: text boxes save when left, choices at
 * once. Template inputs offer the placeholders of the trigger's data and earlier steps' outputs.
 */
export function StepInput({ spec, value, options, placeholders, readOnly, onSave }: StepInputProps) {
  const common = {
    label: spec.label,
    description: spec.description,
    required: spec.required,
    readOnly,
  };
  switch (spec.type) {
    case 'boolean':
      return (
        <Checkbox
          label={spec.label}
          description={spec.description}
          disabled={readOnly}
          checked={value === true}
          onChange={(e) => onSave(e.currentTarget.checked)}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          disabled={readOnly}
          searchable
          clearable={!spec.required}
          data={selectData(options)}
          value={typeof value === 'string' ? value : null}
          onChange={(next) => onSave(next)}
        />
      );
    case 'multiselect':
      return (
        <MultiSelect
          {...common}
          disabled={readOnly}
          searchable
          data={selectData(options)}
          value={Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []}
          onChange={(next) => onSave(next)}
        />
      );
    case 'number':
      return <NumberDraft {...common} value={typeof value === 'number' ? value : null} onSave={onSave} />;
    case 'json':
      return <JsonDraft {...common} value={value} onSave={onSave} />;
    case 'keyValue':
      return (
        <TextDraft
          {...common}
          multiline
          placeholder="Name: value (one a line)"
          value={keyValueText(value)}
          onSave={(text) => onSave(parseKeyValue(text))}
          placeholders={placeholders}
        />
      );
    case 'template':
      return (
        <TextDraft
          {...common}
          multiline={spec.name === 'body' || spec.name === 'text'}
          value={asText(value)}
          onSave={onSave}
          placeholders={placeholders}
        />
      );
    default:
      return <TextDraft {...common} value={asText(value)} onSave={onSave} />;
  }
}

interface DraftProps {
  label: string;
  description?: string;
  required: boolean;
  readOnly: boolean;
}

function TextDraft({
  value,
  onSave,
  multiline = false,
  placeholders,
  placeholder,
  ...props
}: DraftProps & {
  value: string;
  onSave: (value: string) => void;
  multiline?: boolean;
  placeholders?: InputOption[];
  placeholder?: string;
}) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  // A new value from the server replaces the draft.
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const commit = (next: string) => {
    if (next !== value) onSave(next);
  };
  const insert = (text: string) => {
    const el = field.current;
    const start = el?.selectionStart ?? draft.length;
    const end = el?.selectionEnd ?? draft.length;
    const next = draft.slice(0, start) + text + draft.slice(end);
    setDraft(next);
    commit(next);
  };
  const picker =
    placeholders && placeholders.length > 0 && !props.readOnly ? (
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-xs" variant="subtle" leftSection={<IconBraces size={12} />}>
            Insert placeholder
          </Button>
        </Menu.Target>
        <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
          {placeholders.map((option) => (
            <Menu.Item key={option.value} onClick={() => insert(placeholderText(option))}>
              {option.group ? `${option.group}: ` : ''}
              {option.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    ) : null;
  const fieldProps = {
    ...props,
    ref: field,
    placeholder,
    value: draft,
    onChange: (e: { currentTarget: { value: string } }) => setDraft(e.currentTarget.value),
    onBlur: () => commit(draft),
  };
  return (
    <Stack gap={2}>
      {multiline ? <Textarea {...fieldProps} autosize minRows={2} maxRows={12} /> : <TextInput {...fieldProps} />}
      {picker && <Group justify="flex-end">{picker}</Group>}
    </Stack>
  );
}

function NumberDraft({
  value,
  onSave,
  ...props
}: DraftProps & { value: number | null; onSave: (v: number | null) => void }) {
  const [draft, setDraft] = useState<number | string>(value ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value ?? '');
  }
  return (
    <NumberInput
      {...props}
      value={draft}
      onChange={setDraft}
      onBlur={() => {
        const next = typeof draft === 'number' ? draft : null;
        if (next !== value) onSave(next);
      }}
    />
  );
}

function JsonDraft({ value, onSave, ...props }: DraftProps & { value: InputValue; onSave: (v: InputValue) => void }) {
  const text = value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
  const [draft, setDraft] = useState(text);
  const [shown, setShown] = useState(text);
  const [error, setError] = useState<string | null>(null);
  if (shown !== text) {
    setShown(text);
    setDraft(text);
  }
  return (
    <Textarea
      {...props}
      autosize
      minRows={3}
      maxRows={16}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      value={draft}
      error={error}
      onChange={(e) => {
        setDraft(e.currentTarget.value);
        setError(null);
      }}
      onBlur={() => {
        if (draft === text) return;
        if (draft.trim() === '') return onSave(null);
        try {
          onSave(JSON.parse(draft) as InputValue);
        } catch {
          setError('Invalid JSON');
        }
      }}
    />
  );
}

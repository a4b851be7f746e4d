import { Alert, Checkbox, Fieldset, PasswordInput, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { chosenOption, optionDraft, type Draft, type SettingsField } from './settings-schema';

interface FieldsProps {
  fields: SettingsField[];
  value: Draft;
  onChange: (next: Draft) => void;
  /** Problems by field path, already limited to the ones worth showing. */
  errors: Record<string, string>;
  onTouch: (path: string) => void;
}

const asText = (value: unknown) => (value === undefined || value === null ? '' : String(value));

function FieldInput({
  field,
  value,
  onValue,
  errors,
  onTouch,
}: {
  field: SettingsField;
  value: unknown;
  onValue: (next: unknown) => void;
  errors: Record<string, string>;
  onTouch: (path: string) => void;
}) {
  const common = {
    label: field.title,
    description: field.description,
    withAsterisk: field.required,
    error: errors[field.path],
    onBlur: () => onTouch(field.path),
  };
  switch (field.kind) {
    case 'text':
      return field.multiline ? (
        <Textarea
          {...common}
          autosize
          minRows={2}
          value={asText(value)}
          onChange={(e) => onValue(e.currentTarget.value)}
        />
      ) : (
        <TextInput {...common} value={asText(value)} onChange={(e) => onValue(e.currentTarget.value)} />
      );
    case 'password':
      return <PasswordInput {...common} value={asText(value)} onChange={(e) => onValue(e.currentTarget.value)} />;
    case 'number':
      // Kept as text so a wrong value can be shown and reported rather than silently dropped.
      return (
        <TextInput
          {...common}
          inputMode="decimal"
          value={asText(value)}
          onChange={(e) => onValue(e.currentTarget.value)}
        />
      );
    case 'boolean':
      return (
        <Checkbox
          label={field.title}
          description={field.description}
          checked={value === true}
          onChange={(e) => onValue(e.currentTarget.checked)}
        />
      );
    case 'enum':
      return (
        <Select
          {...common}
          data={field.options}
          value={value === undefined || value === null ? null : String(value)}
          onChange={(next) => onValue(next ?? undefined)}
          searchable={field.options.length > 5}
        />
      );
    case 'json':
      return (
        <Textarea
          {...common}
          description={field.description ?? 'JSON'}
          autosize
          minRows={3}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={asText(value)}
          onChange={(e) => onValue(e.currentTarget.value)}
        />
      );
    case 'object':
      return (
        <Fieldset legend={field.title}>
          <SettingsFields
            fields={field.fields}
            value={(value as Draft | undefined) ?? {}}
            onChange={onValue}
            errors={errors}
            onTouch={onTouch}
          />
        </Fieldset>
      );
    case 'oneOf': {
      const option = chosenOption(field, value);
      const current = (value as Draft | undefined) ?? {};
      return (
        <Fieldset legend={field.title}>
          <Stack gap="sm">
            <Select
              label="Type"
              aria-label={field.title}
              data={field.options.map((o) => ({ value: o.value, label: o.title }))}
              value={option?.value ?? null}
              allowDeselect={false}
              onChange={(next) => next && onValue(optionDraft(field, next))}
            />
            {option && (
              <SettingsFields
                fields={option.fields}
                value={current}
                onChange={onValue}
                errors={errors}
                onTouch={onTouch}
              />
            )}
          </Stack>
        </Fieldset>
      );
    }
    case 'unsupported':
      return (
        <Alert color="red" title={field.title}>
          {field.message}
        </Alert>
      );
  }
}

/** Inputs for a list of dynamic fields, editing one level of the draft. */
export function SettingsFields({ fields, value, onChange, errors, onTouch }: FieldsProps) {
  return (
    <Stack gap="sm">
      {fields.map((field) => (
        <FieldInput
          key={field.path}
          field={field}
          value={value[field.key]}
          onValue={(next) => onChange({ ...value, [field.key]: next })}
          errors={errors}
          onTouch={onTouch}
        />
      ))}
    </Stack>
  );
}

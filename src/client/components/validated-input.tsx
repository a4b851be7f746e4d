import { TextInput, type TextInputProps } from '@mantine/core';
import { useMemo, useState } from 'react';
import { cleanPattern } from '../../shared/validation';

interface ValidatedInputProps extends Omit<TextInputProps, 'error' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  /** Returns a message when the value is wrong, null when it is fine. */
  validate?: (value: string) => string | null;
  /** A pattern from the server: anchors and flags are cleaned off; an invalid one is ignored. */
  pattern?: string;
  patternMessage?: string;
}

/** An input that shows its validator's message once the user leaves the field. */
export function ValidatedInput({
  value,
  onChange,
  validate,
  pattern,
  patternMessage,
  onBlur,
  ...props
}: ValidatedInputProps) {
  const [touched, setTouched] = useState(false);
  const regex = useMemo(() => cleanPattern(pattern), [pattern]);
  const message =
    validate?.(value) ?? (regex && value !== '' && !regex.test(value) ? (patternMessage ?? 'Invalid value') : null);
  return (
    <TextInput
      {...props}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={(e) => {
        setTouched(true);
        onBlur?.(e);
      }}
      error={touched ? message : null}
    />
  );
}

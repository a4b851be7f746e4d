import { Loader, TextInput, type TextInputProps } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { TIMINGS } from '../../shared/limits';
import { useAutoReset } from '../lib/use-auto-reset';

interface SaveOnBlurInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'onBlur'> {
  value: string;
  /** Saves the trimmed value; a rejected promise keeps the typed text so nothing is lost. */
  onSave: (value: string) => Promise<unknown>;
  readOnly?: boolean;
}

/** A name field saved when the user leaves it (or presses Enter), with a tick on success. */
export function SaveOnBlurInput({ value, onSave, readOnly, ...props }: SaveOnBlurInputProps) {
  const [draft, setDraft] = useState(value);
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | 'error'>('idle');

  // A new value from the server replaces the draft (adjusting state while rendering, not in an effect).
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  const toIdle = useCallback(() => setState('idle'), []);
  useAutoReset(state === 'saved', toIdle, TIMINGS.successIconMs);

  const save = async () => {
    const next = draft.trim();
    if (!next) {
      setDraft(value);
      return;
    }
    if (next === value) return;
    setState('saving');
    try {
      await onSave(next);
      setState('saved');
    } catch {
      setState('error');
    }
  };

  const section =
    state === 'saving' ? (
      <Loader size={14} />
    ) : state === 'saved' ? (
      <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-label="Saved" data-testid="saved-tick" />
    ) : null;

  return (
    <TextInput
      {...props}
      value={draft}
      readOnly={readOnly}
      onChange={(e) => {
        setDraft(e.currentTarget.value);
        if (state === 'error') setState('idle');
      }}
      onBlur={() => void save()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
        if (e.key === 'Escape') {
          setDraft(value);
          e.currentTarget.blur();
        }
      }}
      rightSection={section}
      error={state === 'error' ? 'Not saved. Change the text and leave the field to try again.' : (props.error ?? null)}
    />
  );
}

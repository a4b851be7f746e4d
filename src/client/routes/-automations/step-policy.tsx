import { Group, MultiSelect, NumberInput, Select } from '@mantine/core';
import { useState } from 'react';
import type { StepPolicy } from '../../../shared/automations';
import { ATTEMPT_ERROR_TYPES } from '../../../shared/integrations';

/** Errors a policy may retry: a ConfigError is never retried, whatever the policy says. */
const RETRYABLE = ATTEMPT_ERROR_TYPES.filter((type) => type !== 'ConfigError');

/** A step's retry and time limits; each field is saved when left (or at once for choices). */
export function StepPolicyFields({
  policy,
  readOnly,
  onSave,
}: {
  policy: StepPolicy;
  readOnly: boolean;
  onSave: (patch: Partial<StepPolicy>) => void;
}) {
  return (
    <Group gap="sm" align="flex-start" wrap="wrap">
      <PolicyNumber
        label="Attempts"
        min={1}
        max={10}
        value={policy.attempts}
        readOnly={readOnly}
        onSave={(attempts) => onSave({ attempts })}
      />
      <PolicyNumber
        label="Back-off (s)"
        min={0}
        max={3_600}
        value={policy.backoffSeconds}
        readOnly={readOnly}
        onSave={(backoffSeconds) => onSave({ backoffSeconds })}
      />
      <PolicyNumber
        label="Timeout (s)"
        min={1}
        max={86_400}
        value={policy.timeoutSeconds}
        readOnly={readOnly}
        onSave={(timeoutSeconds) => onSave({ timeoutSeconds })}
      />
      <MultiSelect
        label="Retry on"
        w={260}
        disabled={readOnly}
        data={[...RETRYABLE]}
        value={policy.retryOn.filter((type) => type !== 'ConfigError')}
        onChange={(next) => onSave({ retryOn: next as StepPolicy['retryOn'] })}
      />
      <Select
        label="On failure"
        w={180}
        disabled={readOnly}
        allowDeselect={false}
        data={[
          { value: 'Fail', label: 'Fail the run' },
          { value: 'Warn', label: 'Only warn' },
        ]}
        value={policy.onFailure}
        onChange={(next) => next && onSave({ onFailure: next as StepPolicy['onFailure'] })}
      />
    </Group>
  );
}

function PolicyNumber({
  label,
  min,
  max,
  value,
  readOnly,
  onSave,
}: {
  label: string;
  min: number;
  max: number;
  value: number;
  readOnly: boolean;
  onSave: (value: number) => void;
}) {
  const [draft, setDraft] = useState<number | string>(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  return (
    <NumberInput
      label={label}
      w={130}
      min={min}
      max={max}
      readOnly={readOnly}
      value={draft}
      onChange={setDraft}
      onBlur={() => {
        if (typeof draft === 'number' && draft !== value && draft >= min && draft <= max) onSave(draft);
        else setDraft(value);
      }}
    />
  );
}

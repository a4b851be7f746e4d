import { Anchor, Collapse, Group } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { SettingsFields } from './settings-fields';
import type { SettingsField } from './settings-schema';
import type { SettingsForm } from './use-settings-form';

/**
 * A settings form's dynamic fields: the required ones first, the optional and advanced ones under a
 * collapsible 'Advanced settings' (spec §5), both groups editing the same draft.
 */
export function ConfigurationFields({ form, advancedOpen = false }: { form: SettingsForm; advancedOpen?: boolean }) {
  const [showAdvanced, setShowAdvanced] = useState(advancedOpen);
  const basic = form.fields.filter((f) => f.required && !f.advanced);
  const advanced = form.fields.filter((f) => !f.required || f.advanced);
  // A problem in a hidden field must not stay hidden once problems are shown.
  const advancedProblem = advanced.some((f) => hasProblem(f, form.shownProblems));
  const expanded = showAdvanced || advancedProblem;
  const fieldsOf = (group: SettingsField[]) => (
    <SettingsFields
      fields={group}
      value={form.draft}
      onChange={form.update}
      errors={form.shownProblems}
      onTouch={form.touch}
    />
  );
  return (
    <>
      {basic.length > 0 && fieldsOf(basic)}
      {advanced.length > 0 && (
        <>
          <Anchor
            component="button"
            type="button"
            onClick={() => setShowAdvanced(!expanded)}
            aria-expanded={expanded}
            style={{ alignSelf: 'flex-start' }}
          >
            <Group gap={4}>
              {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
              Advanced settings
            </Group>
          </Anchor>
          <Collapse expanded={expanded}>{fieldsOf(advanced)}</Collapse>
        </>
      )}
    </>
  );
}

const hasProblem = (field: SettingsField, problems: Record<string, string>) =>
  Object.keys(problems).some((path) => path === field.path || path.startsWith(`${field.path}.`));

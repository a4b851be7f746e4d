import { Accordion, Badge, Group, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { FORMULA_SYNTAX_HELP } from '../../../shared/functions';
import type { Model } from '../../../shared/models';
import { trpc } from '../../trpc';

const CHECK_DEBOUNCE_MS = 300;

/**
 * A formula box checked as the user types (POST validate-function): the problem and its place, or
 * the type the column will have. Columns are listed to insert by key, functions by category.
 */
export function FunctionEditor({
  model,
  value,
  onChange,
  columnKey,
}: {
  model: Model;
  value: string;
  onChange: (value: string) => void;
  columnKey?: string;
}) {
  const [typed] = useDebouncedValue(value, CHECK_DEBOUNCE_MS);
  const check = trpc.models.validateFunction.useQuery(
    { versionId: model.versionId, function: typed, columnKey: columnKey ?? null },
    { enabled: typed.trim() !== '', placeholderData: (previous) => previous },
  );
  const functions = trpc.models.functions.useQuery();
  const result = typed.trim() === '' ? null : check.data;
  const insert = (text: string) => onChange(value ? `${value} ${text}` : text);
  const categories = [...new Set(functions.data?.map((f) => f.category) ?? [])];

  return (
    <Stack gap="xs">
      <Textarea
        label="Formula"
        placeholder="e.g. [abcd] * 2"
        autosize
        minRows={3}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        error={
          result && !result.valid
            ? `${result.message ?? 'Not valid'}${result.start !== null ? ` (at ${result.start + 1})` : ''}`
            : undefined
        }
        description={result?.valid && result.type ? `Result type: ${result.type}` : undefined}
      />
      <Text size="xs" c="dimmed">
        Columns (click to insert):
      </Text>
      <Group gap={4}>
        {model.columns
          .filter((c) => c.columnKey !== columnKey)
          .map((c) => (
            <Badge
              key={c.columnKey}
              variant="light"
              tt="none"
              style={{ cursor: 'pointer' }}
              onClick={() => insert(`[${c.columnKey.replaceAll(']', ']]')}]`)}
              title={`${c.displayName} (${c.type})`}
            >
              {c.displayName}
            </Badge>
          ))}
      </Group>
      <Accordion variant="contained" chevronPosition="left">
        <Accordion.Item value="help">
          <Accordion.Control>Functions and syntax</Accordion.Control>
          <Accordion.Panel>
            <ScrollArea.Autosize mah={260}>
              <Stack gap={4}>
                {FORMULA_SYNTAX_HELP.map((line) => (
                  <Text key={line} size="xs">
                    {line}
                  </Text>
                ))}
                {categories.map((category) => (
                  <Stack key={category} gap={2} mt="xs">
                    <Text size="xs" fw={600}>
                      {category}
                    </Text>
                    {functions.data
                      ?.filter((f) => f.category === category)
                      .map((f) => (
                        <Text key={f.name} size="xs" title={`${f.description}\n${f.example}`}>
                          <Text
                            span
                            ff="monospace"
                            size="xs"
                            c="blue"
                            style={{ cursor: 'pointer' }}
                            onClick={() => insert(`${f.name}(`)}
                          >
                            {f.signature}
                          </Text>{' '}
                          — {f.description}
                        </Text>
                      ))}
                  </Stack>
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  );
}

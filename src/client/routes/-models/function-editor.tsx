import { Accordion, Badge, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import { FORMULA_SYNTAX_HELP } from '../../../shared/functions';
import { columnReference } from '../../../shared/formula-text';
import type { Model } from '../../../shared/models';
import { trpc } from '../../trpc';
import { FormulaInput } from './formula-input';
import type { FormulaCheck } from './use-formula-check';

/**
 * A formula box written with column names (`[Amount]`), checked as the user types
 * (validate-function; `check` from useFormulaCheck, which the dialog also reads to keep Add/Save
 * off while the formula is not valid): the problem and its place, or the type the column will
 * have. Column names and functions complete as the user types; columns are also listed to insert
 * at the caret, functions by category in the help.
 */
export function FunctionEditor({
  model,
  value,
  onChange,
  check,
  columnKey,
}: {
  model: Model;
  value: string;
  onChange: (value: string) => void;
  check: FormulaCheck;
  columnKey?: string;
}) {
  const functions = trpc.models.functions.useQuery();
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const columns = model.columns.filter((c) => c.columnKey !== columnKey);
  const insert = (text: string) => {
    const input = inputRef.current;
    const at = input ? input.selectionEnd : value.length;
    const before = value.slice(0, at);
    const spaced = before === '' || /[\s([,]$/.test(before) ? text : ` ${text}`;
    onChange(before + spaced + value.slice(at));
    input?.focus();
  };
  const categories = [...new Set(functions.data?.map((f) => f.category) ?? [])];

  return (
    <Stack gap="xs">
      <FormulaInput
        value={value}
        onChange={onChange}
        inputRef={inputRef}
        columns={columns}
        functions={functions.data ?? []}
        error={check.status === 'invalid' ? check.reason : undefined}
        description={
          check.status === 'valid' && check.type
            ? `Result type: ${check.type}`
            : check.status === 'checking'
              ? check.reason
              : 'Type [ for a column, letters for a function.'
        }
      />
      <Text size="xs" c="dimmed">
        Columns (click to insert):
      </Text>
      <Group gap={4}>
        {columns.map((c) => (
          <Badge
            key={c.columnKey}
            component="button"
            type="button"
            variant="light"
            tt="none"
            style={{ cursor: 'pointer' }}
            onClick={() => insert(columnReference(c.displayName))}
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

import { Alert, Badge, List, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { ImportMode, ImportPreview } from '../../../shared/static-table-import';

/** Column names as the user reads them: "a", "b" and "c". */
export function nameList(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1) ?? ''}`;
}

const CHOICES: { value: ImportMode; label: string; description: string }[] = [
  {
    value: 'Replace',
    label: 'Replace',
    description: "The file's rows and columns replace the table's. Undo brings the current data back.",
  },
  {
    value: 'Append',
    label: 'Append',
    description: "The file's rows are added below, columns matched by name.",
  },
  { value: 'New', label: 'New table', description: 'A new table is made from the file; this one stays as it is.' },
];

/** Replace, Append or New table, with what each would do to the table's columns. */
export function ImportChoice({
  preview,
  mode,
  onMode,
  newName,
  onNewName,
  disabled,
}: {
  preview: ImportPreview;
  mode: ImportMode;
  onMode: (mode: ImportMode) => void;
  newName: string;
  onNewName: (name: string) => void;
  disabled: boolean;
}) {
  const added = preview.mapping.filter((m) => m.column === null);
  return (
    <Stack gap="sm">
      <Radio.Group
        value={mode}
        onChange={(value) => onMode(value as ImportMode)}
        label="This table already has data. How should the file be imported?"
      >
        <Stack gap={6} mt={6}>
          {CHOICES.map((c) => (
            <Radio key={c.value} value={c.value} label={c.label} description={c.description} disabled={disabled} />
          ))}
        </Stack>
      </Radio.Group>

      {mode === 'Replace' && preview.removed.length > 0 && (
        <Alert color="yellow" p="xs">
          <Text size="sm">
            Not in the file, so removed: {nameList(preview.removed.map((c) => c.displayName))}. Models reading{' '}
            {preview.removed.length === 1 ? 'it' : 'them'} show the column as removed.
          </Text>
        </Alert>
      )}

      {mode === 'Append' && (
        <Stack gap={6} data-testid="append-mapping">
          {preview.appendProblem && (
            <Alert color="red" p="xs">
              <Text size="sm">{preview.appendProblem}</Text>
            </Alert>
          )}
          <Table withTableBorder fz="sm" verticalSpacing={2} aria-label="How the file's columns are matched">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File column</Table.Th>
                <Table.Th w={24} />
                <Table.Th>Table column</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.mapping.map((m, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{m.name}</Table.Td>
                  <Table.Td>
                    <IconArrowRight size={14} aria-hidden />
                  </Table.Td>
                  <Table.Td>
                    {m.column ? (
                      m.column.displayName
                    ) : (
                      <Badge size="sm" variant="light" color="blue" tt="none">
                        New column
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <List size="sm" spacing={2}>
            {added.length > 0 && (
              <List.Item>Columns that will be added: {nameList(added.map((m) => m.name))}</List.Item>
            )}
            {preview.unfilled.length > 0 && (
              <List.Item>
                Not in the file, left empty in the new rows: {nameList(preview.unfilled.map((c) => c.displayName))}
              </List.Item>
            )}
          </List>
        </Stack>
      )}

      {mode === 'New' && (
        <TextInput
          label="Name of the new table"
          value={newName}
          onChange={(e) => onNewName(e.currentTarget.value)}
          error={newName.trim() ? null : 'Name cannot be empty.'}
          disabled={disabled}
          maxLength={200}
        />
      )}
    </Stack>
  );
}

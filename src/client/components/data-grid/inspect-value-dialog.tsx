import { Code, ScrollArea, Table, Text } from '@mantine/core';
import { AUTOFOCUS, Dialog } from '../dialog';

function Cell({ value }: { value: unknown }) {
  if (value === null || value === undefined)
    return (
      <Text c="dimmed" size="xs">
        null
      </Text>
    );
  if (typeof value === 'object') return <Code>{JSON.stringify(value)}</Code>;
  return <>{String(value)}</>;
}

/** Rows of objects become a table with a column per key; anything else a key/value table. */
function JsonGrid({ value }: { value: unknown }) {
  if (Array.isArray(value) && value.length > 0 && value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
    const keys = [...new Set(value.flatMap((v) => Object.keys(v as object)))];
    return (
      <Table withTableBorder withColumnBorders striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            {keys.map((k) => (
              <Table.Th key={k}>{k}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {value.map((row, i) => (
            <Table.Tr key={i}>
              <Table.Td>{i + 1}</Table.Td>
              {keys.map((k) => (
                <Table.Td key={k}>
                  <Cell value={(row as Record<string, unknown>)[k]} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  }
  const entries = value && typeof value === 'object' ? Object.entries(value) : [['value', value] as const];
  return (
    <Table withTableBorder withColumnBorders striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{Array.isArray(value) ? 'Index' : 'Key'}</Table.Th>
          <Table.Th>Value</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Td>{k}</Table.Td>
            <Table.Td>
              <Cell value={v} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** 'Inspect Value': a JSON or array cell shown as a grid. */
export function InspectValueDialog({ value, title, onClose }: { value: unknown; title: string; onClose: () => void }) {
  return (
    <Dialog opened={value !== undefined} onClose={onClose} title={title} size="xl" centered>
      <ScrollArea.Autosize
        mah="60vh"
        // Focused on open, so the arrows scroll a long value; there is no field to focus.
        viewportProps={{ tabIndex: 0, 'aria-label': 'Value', ...AUTOFOCUS }}
      >
        <JsonGrid value={value} />
      </ScrollArea.Autosize>
    </Dialog>
  );
}

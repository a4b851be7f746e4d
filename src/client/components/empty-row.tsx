import { Table, Text } from '@mantine/core';

/** The one row of an empty table, spanning every column. */
export function EmptyRow({ cols, text }: { cols: number; text: string }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={cols}>
        <Text c="dimmed" ta="center" py="md">
          {text}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

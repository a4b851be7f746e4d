import { Badge, Group, ScrollArea, Table, Text } from '@mantine/core';
import { COLUMN_TYPE_LABELS } from '../../../shared/static-column-types';
import type { ImportPreview } from '../../../shared/static-table-import';
import { ColumnTypeIcon } from '../../components/data-grid/column-type-icon';

const cellText = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** The file's first rows under its header, each column with the type detected. */
export function ImportPreviewTable({ preview }: { preview: ImportPreview }) {
  return (
    <div>
      <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
        <Table
          striped
          withTableBorder
          withColumnBorders
          fz="xs"
          horizontalSpacing={6}
          verticalSpacing={2}
          aria-label="First rows of the file"
        >
          <Table.Thead>
            <Table.Tr>
              {preview.columns.map((c, i) => (
                <Table.Th key={i} style={{ whiteSpace: 'nowrap' }}>
                  <Group gap={4} wrap="nowrap">
                    <ColumnTypeIcon type={c.type} />
                    <span>{c.name}</span>
                  </Group>
                  <Badge size="xs" variant="light" color="gray" tt="none" fw={500}>
                    {COLUMN_TYPE_LABELS[c.type] ?? c.type}
                  </Badge>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row, r) => (
              <Table.Tr key={r}>
                {preview.columns.map((_, i) => (
                  <Table.Td
                    key={i}
                    style={{ whiteSpace: 'nowrap', maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis' }}
                  >
                    {cellText(row[i])}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      <Text size="xs" c="dimmed" mt={4}>
        {preview.rows.length === 0
          ? 'The file has a header but no rows.'
          : `The first ${preview.rows.length} row${preview.rows.length === 1 ? '' : 's'}${preview.more ? ' of the file' : ''}; types as detected in the file.`}
      </Text>
    </div>
  );
}

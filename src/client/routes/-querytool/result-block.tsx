import { Button, Code, Group, Menu, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconChevronDown, IconCode, IconDownload, IconTable } from '@tabler/icons-react';
import { useState } from 'react';
import { CHAT_EXPORT_FORMATS, CHAT_MESSAGES, chatExportUrl, type ChatResult } from '../../../shared/chat';

/** Rows of a result the chat itself shows; the grid shows all kept rows, the download every row. */
const SHOWN_ROWS = 10;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value.toLocaleString('en-US', { maximumFractionDigits: 10 });
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A reply's result: its first rows, the row count, Download (CSV, XLSX), Show SQL, Open in grid. */
export function ResultBlock({
  result,
  sql,
  onOpenGrid,
}: {
  result: ChatResult;
  sql: string | null;
  onOpenGrid: () => void;
}) {
  const [showSql, setShowSql] = useState(false);
  const rows = result.rows.slice(0, SHOWN_ROWS);
  return (
    <Stack gap={6} miw={0}>
      <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars>
        <Table striped withTableBorder withColumnBorders fz="sm" aria-label="Result" style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              {result.headers.map((h, i) => (
                <Table.Th key={i}>{h}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, r) => (
              <Table.Tr key={r}>
                {row.map((value, c) => (
                  <Table.Td key={c} ta={typeof value === 'number' ? 'right' : undefined}>
                    {cellText(value)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="xs" c="dimmed">
          {CHAT_MESSAGES.rowCount(rows.length, result.rowCount)}
        </Text>
        <Group gap={4} wrap="wrap">
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                size="compact-sm"
                variant="subtle"
                leftSection={<IconDownload size={14} />}
                rightSection={<IconChevronDown size={12} />}
              >
                Download
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {CHAT_EXPORT_FORMATS.map((format) => (
                <Menu.Item key={format} component="a" href={chatExportUrl(result.queryId, format)} download>
                  {format.toUpperCase()}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          {sql && (
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconCode size={14} />}
              aria-expanded={showSql}
              onClick={() => setShowSql((s) => !s)}
            >
              {showSql ? 'Hide SQL' : 'Show SQL'}
            </Button>
          )}
          <Button size="compact-sm" variant="subtle" leftSection={<IconTable size={14} />} onClick={onOpenGrid}>
            Open in grid
          </Button>
        </Group>
      </Group>
      {showSql && sql && (
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} aria-label="SQL">
          {sql}
        </Code>
      )}
    </Stack>
  );
}

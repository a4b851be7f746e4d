import { Alert, Code, Skeleton, Stack, Table, Text } from '@mantine/core';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';

const cell = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** What the step would read or send, computed by the server without side effects. */
export function StepPreviewPanel({ automationId, stepId }: { automationId: string; stepId: string }) {
  const preview = trpc.automations.stepPreview.useQuery({ id: automationId, stepId }, { retry: false });
  if (preview.isPending) return <Skeleton h={80} />;
  if (preview.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(preview.error)}
      </Alert>
    );
  const { summary, table, details, unresolved } = preview.data;
  return (
    <Stack gap="xs" data-testid="step-preview">
      <Text size="sm">{summary}</Text>
      {table && (
        <Table.ScrollContainer minWidth={table.headers.length * 120} type="native">
          <Table withTableBorder fz="xs">
            <Table.Thead>
              <Table.Tr>
                {table.headers.map((header) => (
                  <Table.Th key={header}>{header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {table.rows.map((row, i) => (
                <Table.Tr key={i}>
                  {row.map((value, j) => (
                    <Table.Td key={j}>{cell(value)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {table.rowCount !== null && (
            <Text size="xs" c="dimmed" mt={4}>
              {table.rowCount.toLocaleString()} row(s) in all
            </Text>
          )}
        </Table.ScrollContainer>
      )}
      {details && (
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {JSON.stringify(details, null, 2)}
        </Code>
      )}
      {unresolved && unresolved.length > 0 && (
        <Text size="xs" c="dimmed">
          Known only during a run: {unresolved.join(', ')}
        </Text>
      )}
    </Stack>
  );
}

import { Table, Text } from '@mantine/core';
import { Fragment } from 'react';
import type { DatasetProgress } from '../../../shared/integrations';
import { formatDuration } from './run-format';
import { RunStatusBadge } from './run-status';

/** A run's datasets with their figures: status, records, duration and the errors each met. */
export function RunDatasets({ datasets }: { datasets: DatasetProgress[] }) {
  if (datasets.length === 0)
    return (
      <Text size="sm" c="dimmed">
        This run synced no dataset.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table aria-label="Datasets of the run">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Dataset</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Records</Table.Th>
            <Table.Th ta="right">Duration</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {datasets.map((d) => (
            <Fragment key={d.name}>
              <Table.Tr style={d.errors.length > 0 ? { borderBottom: 'none' } : undefined}>
                <Table.Td>{d.name}</Table.Td>
                <Table.Td>
                  <RunStatusBadge status={d.status} />
                </Table.Td>
                <Table.Td ta="right">{d.recordsProcessed.toLocaleString()}</Table.Td>
                <Table.Td ta="right">{d.startedAt ? formatDuration(d.startedAt, d.endedAt) : '—'}</Table.Td>
              </Table.Tr>
              {d.errors.length > 0 && (
                // The errors on a row of their own, the table's full width: they are often long.
                <Table.Tr aria-label={`Errors of ${d.name}`}>
                  <Table.Td colSpan={4} pt={0}>
                    {d.errors.map((e, i) => (
                      <Text
                        key={i}
                        size="xs"
                        c={e.type === 'TransientError' ? 'orange' : 'red'}
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {e.type}: {e.message}
                      </Text>
                    ))}
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

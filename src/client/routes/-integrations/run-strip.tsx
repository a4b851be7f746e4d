import { Group, Text, Tooltip } from '@mantine/core';
import type { Run } from '../../../shared/integrations';
import { runStrip } from '../../../shared/run-strip';
import { formatDateTime } from '../../lib/format';

const COLORS: Record<Run['status'], string> = {
  Completed: 'var(--mantine-color-teal-5)',
  Failed: 'var(--mantine-color-red-6)',
  Terminated: 'var(--mantine-color-red-4)',
  Running: 'var(--mantine-color-blue-5)',
  Cancelled: 'var(--mantine-color-gray-5)',
  Pending: 'var(--mantine-color-gray-4)',
};

const box = (background: string, border = 'transparent') => ({
  width: 22,
  height: 22,
  borderRadius: 4,
  background,
  border: `1px dashed ${border}`,
});

/** The last runs as coloured squares (hover for status and time), and the next scheduled one. */
export function RunStrip({ recentRuns, nextRunAt }: { recentRuns: Run[]; nextRunAt: string | null }) {
  return (
    <Group gap={6} wrap="nowrap" aria-label="Recent runs">
      <Text size="xs" c="dimmed" mr={4}>
        Recent runs
      </Text>
      {runStrip(recentRuns, nextRunAt).map((slot, i) => {
        if (slot.kind === 'empty') return <div key={i} style={box('var(--mantine-color-gray-1)')} />;
        if (slot.kind === 'next') {
          return (
            <Tooltip key={i} label={`Next sync ${formatDateTime(slot.at)}`}>
              <div data-slot="next" style={box('transparent', 'var(--mantine-color-gray-5)')} />
            </Tooltip>
          );
        }
        const when = slot.run.startedAt ?? slot.run.createdAt;
        return (
          <Tooltip key={i} label={`${slot.run.status} · ${formatDateTime(when)}`}>
            <div data-slot="run" data-status={slot.run.status} style={box(COLORS[slot.run.status])} />
          </Tooltip>
        );
      })}
    </Group>
  );
}

import { Group, Text, Tooltip } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { Run } from '../../../shared/integrations';
import { runStrip } from '../../../shared/run-strip';
import { formatDateTime } from '../../lib/format';

export const RUN_COLORS: Record<Run['status'], string> = {
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

/**
 * The last runs as coloured squares (hover or focus for status and time), and the next scheduled one.
 * Each run's square is a link to its page, so it opens by click or by keyboard (Tab, Enter).
 */
export function RunStrip({
  integrationId,
  recentRuns,
  nextRunAt,
}: {
  integrationId: string;
  recentRuns: Run[];
  nextRunAt: string | null;
}) {
  return (
    <Group gap={6} wrap="nowrap" role="group" aria-label="Recent runs">
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
        const label = `${slot.run.status} · ${formatDateTime(slot.run.startedAt ?? slot.run.createdAt)}`;
        return (
          <Tooltip key={slot.run.id} label={label}>
            <Link
              to="/integrations/$id/runs/$runId"
              params={{ id: integrationId, runId: slot.run.id }}
              aria-label={`Run ${label}`}
              data-slot="run"
              data-status={slot.run.status}
              // Mantine's focus ring, as its own controls show it on keyboard focus.
              className="mantine-focus-auto"
              style={{ ...box(RUN_COLORS[slot.run.status]), display: 'block' }}
            />
          </Tooltip>
        );
      })}
    </Group>
  );
}

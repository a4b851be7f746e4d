import { Progress, Stack, Text } from '@mantine/core';
import type { ImportStage } from '../../../shared/static-table-import';
import { trpc } from '../../trpc';

/** How often the dialog asks the server how far the import has got. */
const POLL_MS = 300;

const STAGE_TEXT: Record<ImportStage, string> = {
  Reading: 'reading the file',
  Checking: 'checking the columns',
  Writing: 'writing the rows',
  Saving: 'saving the table',
  Done: 'done',
};

/** A name for one import, under which its progress is asked for (URL-safe, from the browser's random source). */
export function newProgressToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The import's second phase (after the upload): the server's progress, polled under `token`, as a
 * determinate bar with the percentage and the stage. Until the server has reported anything (the
 * file's tail is still being saved, or the table is busy), an indeterminate bar.
 */
export function ImportProgress({ token }: { token: string }) {
  const { data } = trpc.staticTables.importProgress.useQuery(
    { token },
    { refetchInterval: POLL_MS, refetchIntervalInBackground: true, gcTime: 0, retry: false },
  );
  if (!data) {
    return (
      <Stack gap={4}>
        <Text size="sm">Importing…</Text>
        <Progress value={100} striped animated aria-label="Import progress" />
      </Stack>
    );
  }
  const percent = Math.round(data.fraction * 100);
  return (
    <Stack gap={4}>
      <Text size="sm" aria-live="polite">
        Importing… {percent}%{' '}
        <Text span size="sm" c="dimmed">
          · {STAGE_TEXT[data.stage]}
        </Text>
      </Text>
      <Progress value={percent} aria-label="Import progress" transitionDuration={200} />
    </Stack>
  );
}

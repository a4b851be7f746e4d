import { Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { PublicCard } from './public-card';

export type Status = 'pending' | 'success' | 'failure';

/** How long the success message stays before the page moves on. */
export const REDIRECT_DELAY_MS = 800;

interface StatusCardProps {
  status: Status;
  pendingText: string;
  success: { title: string; text: string };
  failure: { title: string; text: string; extra?: ReactNode };
}

/** The outcome of a single-use link (sign-in, invitation): a spinner, then success or failure. */
export function StatusCard({ status, pendingText, success, failure }: StatusCardProps) {
  const outcome = status === 'success' ? success : status === 'failure' ? failure : null;
  return (
    <PublicCard>
      <Stack align="center" ta="center" gap="sm" py="md">
        {outcome ? (
          <>
            <ThemeIcon size={52} radius="xl" color={status === 'success' ? 'teal' : 'red'} variant="light">
              {status === 'success' ? <IconCheck size={28} /> : <IconX size={28} />}
            </ThemeIcon>
            <Title order={3}>{outcome.title}</Title>
            <Text size="sm">{outcome.text}</Text>
            {status === 'failure' && failure.extra}
          </>
        ) : (
          <>
            <Loader />
            <Text size="sm" c="dimmed">
              {pendingText}
            </Text>
          </>
        )}
      </Stack>
    </PublicCard>
  );
}

import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { PublicCard } from './public-card';

/** 'Check your email.': shown once a sign-in (or sign-up) link is on its way. */
export function CheckEmailCard({ children }: { children: ReactNode }) {
  return (
    <PublicCard>
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={52} radius="xl" variant="light" color="teal">
          <IconMailCheck size={28} />
        </ThemeIcon>
        <Title order={3}>Check your email.</Title>
        {children}
      </Stack>
    </PublicCard>
  );
}

export function SpamHint() {
  return (
    <Text size="sm" c="dimmed">
      Nothing there after a minute? Check your spam folder.
    </Text>
  );
}

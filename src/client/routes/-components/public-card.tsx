import { Anchor, Center, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Logo } from '../../components/logo';

/** The centred card of the open pages (sign in, confirm, invite, register). */
export function PublicCard({ children }: { children: ReactNode }) {
  return (
    <Center
      mih="100vh"
      p="md"
      style={{ background: 'linear-gradient(160deg, var(--mantine-color-blue-0), var(--mantine-color-gray-0) 60%)' }}
    >
      <Stack w="100%" maw={420} gap="lg">
        <Center>
          <Logo size={36} withName />
        </Center>
        <Paper p="xl" shadow="sm">
          {children}
        </Paper>
        <Group justify="center">
          <Text size="xs" c="dimmed">
            <Anchor href="/privacy-policy.html" target="_blank" size="xs" c="dimmed">
              Privacy policy
            </Anchor>
          </Text>
        </Group>
      </Stack>
    </Center>
  );
}

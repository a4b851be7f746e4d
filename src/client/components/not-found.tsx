import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useMe } from '../lib/session';
import { WorkspaceShell } from '../shell/app-shell';

export function NotFoundContent() {
  return (
    <Center mih="70vh" p="xl">
      <Stack align="center" gap="xs" ta="center">
        <Text c="dimmed" fw={700} size="xl">
          404
        </Text>
        <Title order={2}>Page not found</Title>
        <Text c="dimmed" maw={380}>
          The address may be mistyped, or the page may have moved.
        </Text>
        <Button component={Link} to="/" mt="md">
          Go to home
        </Button>
      </Stack>
    </Center>
  );
}

/** Unknown addresses: inside the shell for a signed-in user, so the sidebar stays at hand. */
export function NotFoundPage() {
  const { data: me } = useMe();
  if (!me) return <NotFoundContent />;
  return (
    <WorkspaceShell user={me}>
      <NotFoundContent />
    </WorkspaceShell>
  );
}

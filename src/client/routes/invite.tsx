import { Anchor, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { Link, createFileRoute, useRouter } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { z } from 'zod';
import { refreshMe } from '../lib/session';
import { trpc } from '../trpc';
import { PublicCard } from './-components/public-card';
import { useOnce } from './-components/use-once';

export const Route = createFileRoute('/invite')({
  validateSearch: z.object({ token: z.string().optional(), accountId: z.string().optional() }),
  component: InvitePage,
});

function InvitePage() {
  const { token, accountId } = Route.useSearch();
  const router = useRouter();
  const [failed, setFailed] = useState(!token || !accountId);
  const accept = trpc.accounts.acceptInvite.useMutation({ meta: { silent: true } });

  const run = useCallback(() => {
    if (!token || !accountId) return;
    accept.mutate(
      { token, accountId },
      {
        onSuccess: async () => {
          await refreshMe();
          window.setTimeout(() => router.history.replace('/'), 800);
        },
        onError: () => setFailed(true),
      },
    );
  }, [token, accountId, accept, router]);
  useOnce(run);

  return (
    <PublicCard>
      <Stack align="center" ta="center" gap="sm" py="md">
        {failed ? (
          <>
            <ThemeIcon size={52} radius="xl" color="red" variant="light">
              <IconX size={28} />
            </ThemeIcon>
            <Title order={3}>Invitation failed.</Title>
            <Text size="sm">Please try again. Ask the account owner for a new invitation.</Text>
            <Anchor component={Link} to="/login">
              Sign in
            </Anchor>
          </>
        ) : accept.isSuccess ? (
          <>
            <ThemeIcon size={52} radius="xl" color="teal" variant="light">
              <IconCheck size={28} />
            </ThemeIcon>
            <Title order={3}>Invitation success.</Title>
            <Text size="sm">Taking you to your new account.</Text>
          </>
        ) : (
          <>
            <Loader />
            <Text size="sm" c="dimmed">
              Accepting the invitation...
            </Text>
          </>
        )}
      </Stack>
    </PublicCard>
  );
}

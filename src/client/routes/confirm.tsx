import { Anchor, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { Link, createFileRoute, useRouter } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { z } from 'zod';
import { safeReturnUrl } from '../../shared/auth';
import { refreshMe } from '../lib/session';
import { trpc } from '../trpc';
import { PublicCard } from './-components/public-card';
import { useOnce } from './-components/use-once';

export const Route = createFileRoute('/confirm')({
  validateSearch: z.object({ token: z.string().optional() }),
  component: ConfirmPage,
});

const REDIRECT_DELAY_MS = 800;

function ConfirmPage() {
  const { token } = Route.useSearch();
  const router = useRouter();
  const [failed, setFailed] = useState(!token);
  const confirm = trpc.auth.confirm.useMutation({ meta: { silent: true } });

  const run = useCallback(() => {
    if (!token) return;
    confirm.mutate(
      { token },
      {
        onSuccess: async ({ returnUrl }) => {
          await refreshMe();
          // Only addresses on this site, re-checked here as well as on the server.
          const target = safeReturnUrl(returnUrl, window.location.origin) ?? '/';
          window.setTimeout(() => router.history.replace(target), REDIRECT_DELAY_MS);
        },
        onError: () => setFailed(true),
      },
    );
  }, [token, confirm, router]);
  useOnce(run);

  return (
    <PublicCard>
      <Stack align="center" ta="center" gap="sm" py="md">
        {failed ? (
          <>
            <ThemeIcon size={52} radius="xl" color="red" variant="light">
              <IconX size={28} />
            </ThemeIcon>
            <Title order={3}>Login failed.</Title>
            <Text size="sm">Please try again.</Text>
            <Text size="sm" c="dimmed">
              Sign-in links work once and expire after 15 minutes.
            </Text>
            <Anchor component={Link} to="/login">
              Sign in
            </Anchor>
          </>
        ) : confirm.isSuccess ? (
          <>
            <ThemeIcon size={52} radius="xl" color="teal" variant="light">
              <IconCheck size={28} />
            </ThemeIcon>
            <Title order={3}>Login success.</Title>
            <Text size="sm">Redirecting you to the dashboard.</Text>
          </>
        ) : (
          <>
            <Loader />
            <Text size="sm" c="dimmed">
              Signing you in...
            </Text>
          </>
        )}
      </Stack>
    </PublicCard>
  );
}

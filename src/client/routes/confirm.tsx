import { Anchor, Text } from '@mantine/core';
import { Link, createFileRoute, useRouter } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { z } from 'zod';
import { safeReturnUrl } from '../../shared/auth';
import { refreshMe } from '../lib/session';
import { trpc } from '../trpc';
import { REDIRECT_DELAY_MS, StatusCard, type Status } from './-components/status-card';
import { useOnce } from './-components/use-once';

export const Route = createFileRoute('/confirm')({
  validateSearch: z.object({ token: z.string().optional() }),
  component: ConfirmPage,
});

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

  const status: Status = failed ? 'failure' : confirm.isSuccess ? 'success' : 'pending';
  return (
    <StatusCard
      status={status}
      pendingText="Signing you in..."
      success={{ title: 'Login success.', text: 'Redirecting you to the dashboard.' }}
      failure={{
        title: 'Login failed.',
        text: 'Please try again.',
        extra: (
          <>
            <Text size="sm" c="dimmed">
              Sign-in links work once and expire after 15 minutes.
            </Text>
            <Anchor component={Link} to="/login">
              Sign in
            </Anchor>
          </>
        ),
      }}
    />
  );
}

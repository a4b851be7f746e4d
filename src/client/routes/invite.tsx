import { Anchor } from '@mantine/core';
import { Link, createFileRoute, useRouter } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { z } from 'zod';
import { refreshMe } from '../lib/session';
import { trpc } from '../trpc';
import { REDIRECT_DELAY_MS, StatusCard, type Status } from './-components/status-card';
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
          window.setTimeout(() => router.history.replace('/'), REDIRECT_DELAY_MS);
        },
        onError: () => setFailed(true),
      },
    );
  }, [token, accountId, accept, router]);
  useOnce(run);

  const status: Status = failed ? 'failure' : accept.isSuccess ? 'success' : 'pending';
  return (
    <StatusCard
      status={status}
      pendingText="Accepting the invitation..."
      success={{ title: 'Invitation success.', text: 'Taking you to your new account.' }}
      failure={{
        title: 'Invitation failed.',
        text: 'Please try again. Ask the account owner for a new invitation.',
        extra: (
          <Anchor component={Link} to="/login">
            Sign in
          </Anchor>
        ),
      }}
    />
  );
}

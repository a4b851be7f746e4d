import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, createFileRoute, redirect } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { MESSAGES } from '../../shared/messages';
import { isValidEmail } from '../../shared/validation';
import { errorMessage, errorStatus } from '../lib/error-message';
import { ensureMe } from '../lib/session';
import { trpc } from '../trpc';
import { CheckEmailCard, SpamHint } from './-components/check-email-card';
import { PublicCard } from './-components/public-card';

export const Route = createFileRoute('/login')({
  validateSearch: z.object({ returnUrl: z.string().optional() }),
  beforeLoad: async () => {
    const me = await ensureMe().catch(() => null);
    if (me) throw redirect({ to: '/' });
  },
  component: LoginPage,
});

function LoginPage() {
  const { returnUrl } = Route.useSearch();
  const [email, setEmail] = useState('');
  const request = trpc.auth.requestLogin.useMutation({ meta: { silent: true } });
  const valid = isValidEmail(email);

  if (request.isSuccess) {
    return (
      <CheckEmailCard>
        <Text size="sm">
          We sent a login link to <b>{email.trim()}</b>. It works once, for 15 minutes.
        </Text>
        <SpamHint />
        <Anchor component="button" type="button" size="sm" onClick={() => request.reset()}>
          Use another address
        </Anchor>
      </CheckEmailCard>
    );
  }

  const failure = request.isError
    ? errorStatus(request.error) === 429
      ? errorMessage(request.error)
      : MESSAGES.loginRequestFailed
    : null;

  return (
    <PublicCard>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) request.mutate({ email, returnUrl });
        }}
      >
        <Stack>
          <Stack gap={4}>
            <Title order={3}>Sign in</Title>
            <Text size="sm" c="dimmed">
              Enter your e-mail and we will send you a link to sign in.
            </Text>
          </Stack>
          <TextInput
            label="E-mail"
            type="email"
            placeholder="you@company.com"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          {failure && <Alert color="red">{failure}</Alert>}
          <Button type="submit" disabled={!valid} loading={request.isPending} fullWidth>
            Continue
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            No account yet?{' '}
            <Anchor component={Link} to="/register">
              Request access
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicCard>
  );
}

import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { MESSAGES } from '../../shared/messages';
import { isValidEmail } from '../../shared/validation';
import { trpc } from '../trpc';
import { CheckEmailCard, SpamHint } from './-components/check-email-card';
import { PublicCard } from './-components/public-card';

export const Route = createFileRoute('/register')({
  component: RegisterPage,
});

/**
 * Request access. Sign-in is by e-mail link, so the form asks for a link like the sign-in page
 * does; the password field is kept from the spec's screen but not needed.
 */
function RegisterPage() {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const request = trpc.auth.requestLogin.useMutation({ meta: { silent: true } });
  const valid = isValidEmail(email);

  if (request.isSuccess) {
    return (
      <CheckEmailCard>
        <Text size="sm">
          If this workspace accepts new members, a link to finish signing up is on its way to <b>{email.trim()}</b>.
          Otherwise, ask an account owner to invite you.
        </Text>
        <SpamHint />
      </CheckEmailCard>
    );
  }

  return (
    <PublicCard>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) request.mutate({ email, name: name.trim() || undefined });
        }}
      >
        <Stack>
          <Title order={3}>Request access</Title>
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <TextInput
            label="Full name"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            disabled
            placeholder="Not needed"
            description="You sign in with a link sent to your e-mail, so there is no password to choose."
          />
          {request.isError && <Alert color="red">{MESSAGES.loginRequestFailed}</Alert>}
          <Button type="submit" disabled={!valid} loading={request.isPending}>
            Create account
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            Already have an account?{' '}
            <Anchor component={Link} to="/login">
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicCard>
  );
}

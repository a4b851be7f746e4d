import { Center, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { TIMINGS } from '../../shared/limits';

export const Route = createFileRoute('/oauth/callback')({
  component: OAuthCallbackPage,
});

/** Messages between the OAuth popup and the page that opened it. */
export const OAUTH_CHANNEL = 'oauth';
export type OAuthMessage = { type: 'oauth-completed'; params: Record<string, string> } | { type: 'oauth-close' };

/**
 * The OAuth popup's landing page: tells the other windows the query parameters, then goes to /
 * after 5 seconds, or closes when the opener says so.
 */
function OAuthCallbackPage() {
  const router = useRouter();
  useEffect(() => {
    const params = Object.fromEntries(new URLSearchParams(window.location.search));
    const message: OAuthMessage = { type: 'oauth-completed', params };
    const channel = new BroadcastChannel(OAUTH_CHANNEL);
    channel.postMessage(message);
    window.opener?.postMessage(message, window.location.origin);
    const close = (data: unknown) => {
      if ((data as OAuthMessage | null)?.type === 'oauth-close') window.close();
    };
    channel.onmessage = (event) => close(event.data);
    const onWindowMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin) close(event.data);
    };
    window.addEventListener('message', onWindowMessage);
    const timer = window.setTimeout(() => router.history.replace('/'), TIMINGS.oauthRedirectMs);
    return () => {
      channel.close();
      window.removeEventListener('message', onWindowMessage);
      window.clearTimeout(timer);
    };
  }, [router]);

  return (
    <Center h="100vh">
      <Stack align="center" gap="sm">
        <ThemeIcon size={52} radius="xl" color="teal" variant="light">
          <IconCheck size={28} />
        </ThemeIcon>
        <Text>Oauth authorization completed. You can now close this page.</Text>
      </Stack>
    </Center>
  );
}

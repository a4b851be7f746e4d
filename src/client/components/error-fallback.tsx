import { Anchor, Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage, errorStatus } from '../lib/error-message';
import { sendErrorReport } from '../lib/error-report';

/**
 * What a crashed screen shows: 'Something went wrong' with a link to report the error; the link
 * becomes 'Error reported successfully.' once sent.
 */
export function ErrorFallback({ error, reset }: { error: unknown; reset?: () => void }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed' | 'signed-out'>('idle');
  const [failure, setFailure] = useState('');
  const report = async () => {
    setState('sending');
    try {
      const message = error instanceof Error ? error.message : String(error);
      await sendErrorReport({ message: `Crash: ${message}`, error });
      setState('sent');
    } catch (failed) {
      // Reports need a signed-in user; other refusals (too many reports) say why under the link.
      setFailure(errorMessage(failed));
      setState(errorStatus(failed) === 401 ? 'signed-out' : 'failed');
    }
  };
  return (
    <Center mih="60vh" p="xl">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <ThemeIcon size={56} radius="xl" color="red" variant="light">
          <IconAlertTriangle size={30} />
        </ThemeIcon>
        <Title order={3}>Something went wrong</Title>
        {state === 'sent' ? (
          <Text c="teal">Error reported successfully.</Text>
        ) : state === 'signed-out' ? (
          <Text c="dimmed">Sign in to report this error.</Text>
        ) : (
          <Anchor component="button" type="button" onClick={() => void report()} disabled={state === 'sending'}>
            {state === 'failed' ? 'Reporting failed. Click here to try again.' : 'Click here to report this error'}
          </Anchor>
        )}
        {state === 'failed' && failure && (
          <Text size="sm" c="dimmed">
            {failure}
          </Text>
        )}
        {reset && (
          <Button variant="default" mt="sm" onClick={reset}>
            Try again
          </Button>
        )}
      </Stack>
    </Center>
  );
}

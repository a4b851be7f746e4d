import { Center, Loader, Stack } from '@mantine/core';
import { Logo } from './logo';

/** Shown while the sign-in state is still unknown. */
export function LoadingSplash() {
  return (
    <Center h="100vh" aria-busy="true" aria-label="Loading">
      <Stack align="center" gap="lg">
        <Logo size={40} />
        <Loader size="sm" />
      </Stack>
    </Center>
  );
}

import { Alert, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { PAGE_MAX_WIDTH } from '../../components/page-frame';
import { errorMessage } from '../../lib/error-message';

/** The width every admin page keeps: the workspace's one page width (components/page-frame.tsx). */
export const ADMIN_PAGE_WIDTH = PAGE_MAX_WIDTH;

/** An admin page's frame: its content, or a skeleton while loading, or the error in words. */
export function AdminPage({
  loading,
  error,
  errorTitle,
  children,
}: {
  loading?: boolean;
  error?: unknown;
  errorTitle?: string;
  children: ReactNode;
}) {
  return (
    <Stack maw={ADMIN_PAGE_WIDTH} gap="lg">
      {error ? (
        <Alert color="red" title={errorTitle ?? 'Could not load this page'}>
          {errorMessage(error)}
        </Alert>
      ) : loading ? (
        <Stack gap="md" aria-busy="true">
          <Skeleton h={36} w={320} />
          <Skeleton h={160} />
          <Skeleton h={220} />
        </Stack>
      ) : (
        children
      )}
    </Stack>
  );
}

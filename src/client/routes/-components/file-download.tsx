import { Anchor, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { FILE_MESSAGES, type FileStatus } from '../../../shared/files';
import { formatFileSize } from '../../../shared/file-size';
import { errorStatus } from '../../lib/error-message';

interface FileCheck {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: { name: string; fileSize: number; status?: FileStatus };
}

/**
 * The download pages' body (spec: file download pages): once the file is known to be there, the
 * browser is sent to its download address (so it streams to disk, whatever the size), and the
 * page says 'Your file has been downloaded.'; an unknown, revoked or expired file reads 'No file
 * found…', any other failure 'Error loading file…'.
 */
export function FileDownload({ check, href }: { check: FileCheck; href: string }) {
  const started = useRef(false);
  const ready = check.data !== undefined && (check.data.status ?? 'Ready') === 'Ready';
  useEffect(() => {
    if (!ready || started.current) return;
    started.current = true;
    const link = document.createElement('a');
    link.href = href;
    link.download = '';
    document.body.append(link);
    link.click();
    link.remove();
  }, [ready, href]);

  if (check.isPending) return <Loader aria-label="Loading file" />;
  const notFound = check.isError && errorStatus(check.error) === 404;
  const failed = check.isError || (check.data !== undefined && !ready);
  if (failed) {
    const pending = check.data?.status === 'Pending';
    return (
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={52} radius="xl" color="red" variant="light">
          <IconX size={28} />
        </ThemeIcon>
        <Text role="alert">
          {notFound ? FILE_MESSAGES.notFound : pending ? FILE_MESSAGES.notReady : FILE_MESSAGES.loadError}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack align="center" ta="center" gap="sm">
      <ThemeIcon size={52} radius="xl" color="teal" variant="light">
        <IconCheck size={28} />
      </ThemeIcon>
      <Title order={3}>{FILE_MESSAGES.downloaded}</Title>
      <Text size="sm" c="dimmed">
        {check.data?.name} · {formatFileSize(check.data?.fileSize ?? 0)}
      </Text>
      <Anchor href={href} download size="sm">
        Download again
      </Anchor>
    </Stack>
  );
}

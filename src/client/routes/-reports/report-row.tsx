import { ActionIcon, Anchor, Menu, Progress, Stack, Table, Text } from '@mantine/core';
import { IconDots, IconDownload, IconLink, IconLinkOff, IconTrash } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { filePaths, type FileInfo } from '../../../shared/files';
import { formatFileSize } from '../../../shared/file-size';
import { formatDateTime, formatRecent } from '../../lib/format';
import { PublicUrlButton } from './public-url-button';

/** Where the file came from: its model, table or automation. */
function OriginLink({ file }: { file: FileInfo }) {
  const id = file.originEntityTypeId;
  if (!id)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  if (file.originEntityType === 'Model')
    return (
      <Anchor size="sm" renderRoot={(p) => <Link {...p} to="/models/$id" params={{ id }} />}>
        Open model
      </Anchor>
    );
  if (file.originEntityType === 'StaticTable')
    return (
      <Anchor size="sm" renderRoot={(p) => <Link {...p} to="/tables/$id" params={{ id }} />}>
        Open table
      </Anchor>
    );
  return (
    <Anchor size="sm" renderRoot={(p) => <Link {...p} to="/automations/$id" params={{ id }} />}>
      Open automation
    </Anchor>
  );
}

function NameCell({ file }: { file: FileInfo }) {
  let detail: ReactNode = (
    <Text size="xs" c="dimmed">
      {formatFileSize(file.fileSize)}
    </Text>
  );
  if (file.status === 'Pending')
    detail = (
      <Stack gap={2}>
        <Text size="xs" c="dimmed">
          Generating… {file.progress}%
        </Text>
        <Progress value={file.progress} size="xs" aria-label={`Generating ${file.name}`} />
      </Stack>
    );
  if (file.status === 'Failed')
    detail = (
      <Text size="xs" c="red">
        Failed: {file.error}
      </Text>
    );
  return (
    <Stack gap={2}>
      {file.status === 'Ready' ? (
        <Anchor fw={500} href={filePaths.privateDownload(file.id)} download>
          {file.name}
        </Anchor>
      ) : (
        <Text fw={500}>{file.name}</Text>
      )}
      {detail}
    </Stack>
  );
}

function PublicUrlCell({ file }: { file: FileInfo }) {
  if (!file.shared || !file.downloadUrl)
    return (
      <Text size="sm" c="dimmed">
        Not shared
      </Text>
    );
  return (
    <Stack gap={4} align="flex-start">
      <PublicUrlButton url={file.downloadUrl} expiresAt={file.sharedExpiresAt} />
      <Text size="xs" c="dimmed">
        {file.downloadCount === 1 ? '1 download' : `${file.downloadCount} downloads`}
        {file.lastUsedAt && ` · last ${formatRecent(file.lastUsedAt)}`}
      </Text>
    </Stack>
  );
}

export function ReportRow({
  file,
  canWrite,
  onShare,
  onRevoke,
  onDelete,
}: {
  file: FileInfo;
  canWrite: boolean;
  onShare: () => void;
  onRevoke: () => void;
  onDelete: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <NameCell file={file} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{file.originEntityType}</Text>
      </Table.Td>
      <Table.Td>
        <OriginLink file={file} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" title={formatDateTime(file.createdAt)}>
          {formatRecent(file.createdAt)}
        </Text>
      </Table.Td>
      <Table.Td>
        <PublicUrlCell file={file} />
      </Table.Td>
      <Table.Td>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${file.name}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {file.status === 'Ready' && (
              <Menu.Item
                leftSection={<IconDownload size={16} />}
                component="a"
                href={filePaths.privateDownload(file.id)}
                download
              >
                Download
              </Menu.Item>
            )}
            {canWrite && file.status === 'Ready' && !file.shared && (
              <Menu.Item leftSection={<IconLink size={16} />} onClick={onShare}>
                Create public URL
              </Menu.Item>
            )}
            {canWrite && file.shared && (
              <Menu.Item leftSection={<IconLinkOff size={16} />} onClick={onRevoke}>
                Revoke public URL
              </Menu.Item>
            )}
            {canWrite && (
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
                Delete
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}

import { Button, Group, Menu, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconCode,
  IconDots,
  IconDownload,
  IconHistory,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { Model } from '../../../shared/models';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SaveOnBlurInput } from '../../components/save-on-blur-input';
import { trpc } from '../../trpc';
import { StatusBadge } from './status-badge';
import { SqlDialog } from './sql-dialog';
import type { ModelHandle } from './use-model';
import { VersionsDialog } from './versions-dialog';

export const DELETE_MODEL_PROMPT = 'Are you sure you want to delete this model?';

/**
 * The model's header, on the model page and the pivot page: inline name (or `title`), Save and Undo
 * while there are unpublished changes, Versions, and the menu with Export data, Show SQL, Delete.
 */
export function ModelHeader({ model, handle, title }: { model: Model; handle: ModelHandle; title?: ReactNode }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [showSql, setShowSql] = useState(false);
  const [versions, setVersions] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = trpc.models.delete.useMutation({
    onSuccess: async () => {
      await utils.models.list.invalidate();
      await navigate({ to: '/models' });
    },
  });
  const problems = model.errors.hasBreakingErrors ? model.errors.texts.join('\n') : null;

  return (
    <Group justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        {title ?? (
          <SaveOnBlurInput
            aria-label="Model name"
            value={model.name}
            variant="unstyled"
            size="lg"
            fw={650}
            w={380}
            onSave={(name) => handle.rename.mutateAsync({ id: model.id, name })}
          />
        )}
        <StatusBadge status={model.status} label={`${model.status} · v${model.versionNumber}`} />
      </Group>
      <Group gap="xs" wrap="nowrap">
        {model.hasUnpublishedChanges && (
          <>
            <Tooltip label={problems ?? 'Publish the changes as the version in use'} multiline maw={360}>
              <Button
                size="xs"
                color={problems ? 'red' : undefined}
                variant={problems ? 'light' : 'filled'}
                leftSection={<IconUpload size={14} />}
                loading={handle.publish.isPending}
                data-disabled={problems ? true : undefined}
                onClick={() => !problems && handle.publish.mutate({ id: model.id })}
              >
                Save
              </Button>
            </Tooltip>
            {model.activeVersionId && (
              <Tooltip label="Discard the unpublished changes">
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconArrowBackUp size={14} />}
                  loading={handle.revert.isPending}
                  onClick={() => handle.revert.mutate({ id: model.id })}
                >
                  Undo
                </Button>
              </Tooltip>
            )}
          </>
        )}
        <Button size="xs" variant="default" leftSection={<IconHistory size={14} />} onClick={() => setVersions(true)}>
          Versions
        </Button>
        <Menu position="bottom-end" shadow="md">
          <Menu.Target>
            <Button size="xs" variant="default" aria-label="Model menu" px={8}>
              <IconDots size={16} />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconDownload size={14} />}
              component="a"
              href={`/api/models/versions/${encodeURIComponent(model.versionId)}/export?format=csv`}
              disabled={model.columns.length === 0}
            >
              Export data
            </Menu.Item>
            <Menu.Item leftSection={<IconCode size={14} />} onClick={() => setShowSql(true)}>
              Show SQL
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => setDeleting(true)}>
              Delete model
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <SqlDialog opened={showSql} sql={model.viewSql} onClose={() => setShowSql(false)} />
      <VersionsDialog
        model={model}
        opened={versions}
        onClose={() => setVersions(false)}
        using={handle.setActive.isPending}
        onUse={(versionId) => handle.setActive.mutate({ versionId }, { onSuccess: () => setVersions(false) })}
      />
      <ConfirmDialog
        opened={deleting}
        danger
        message={DELETE_MODEL_PROMPT}
        loading={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.mutate({ id: model.id })}
      />
    </Group>
  );
}

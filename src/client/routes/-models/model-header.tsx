import { Button, Group, Menu, Title, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconCode,
  IconDots,
  IconDownload,
  IconHistory,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useHotkeys } from '@mantine/hooks';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { Model } from '../../../shared/models';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SaveOnBlurInput } from '../../components/save-on-blur-input';
import { ViewOnlyBadge } from '../../components/view-only-badge';
import { useAccess } from '../../lib/use-access';
import { trpc } from '../../trpc';
import { StatusBadge } from './status-badge';
import { SqlDialog } from './sql-dialog';
import type { ModelHandle } from './use-model';
import { VersionsDialog } from './versions-dialog';

export const DELETE_MODEL_PROMPT = 'Are you sure you want to delete this model?';
export const DISCARD_DRAFT_PROMPT =
  'Discard every unpublished change to this model? It goes back to the published version; this cannot be undone.';

/** Why Publish cannot run now, in words for its tooltip; null when it can. */
function publishBlocker(model: Model): string | null {
  if (model.errors.hasBreakingErrors) return `Fix these problems first: ${model.errors.texts.join(' ')}`;
  if (model.columns.length === 0) return 'Add a column first: the model has no data yet.';
  if (!model.viewSql) return 'The model cannot load its data yet: check its columns and relationships.';
  return null;
}

/**
 * The model's header, on the model page and the pivot page: inline name (or `title`), and while
 * there are unpublished changes Publish, Undo/Redo (one change of the draft at a time, kept on the
 * server) and 'Discard draft…'; Versions, and the menu with Export data, Show SQL, Delete. A member
 * who may not change the account sees the model in view mode: no edit controls, a 'View only' mark.
 */
export function ModelHeader({ model, handle, title }: { model: Model; handle: ModelHandle; title?: ReactNode }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const access = useAccess();
  const canEdit = access.canWrite;
  const [showSql, setShowSql] = useState(false);
  const [versions, setVersions] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const remove = trpc.models.delete.useMutation({
    onSuccess: async () => {
      await utils.models.list.invalidate();
      await navigate({ to: '/models' });
    },
  });
  const blocker = publishBlocker(model);
  const stepping = handle.undo.isPending || handle.redo.isPending;
  const canUndo = canEdit && model.hasUnpublishedChanges && model.undoLabel !== null && !stepping;
  const canRedo = canEdit && model.hasUnpublishedChanges && model.redoLabel !== null && !stepping;
  // As in the table editor (spec: Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z or Y); typing in a field keeps its own undo.
  useHotkeys([
    ['mod+Z', () => canUndo && handle.undo.mutate({ id: model.id })],
    ['mod+shift+Z', () => canRedo && handle.redo.mutate({ id: model.id })],
    ['mod+Y', () => canRedo && handle.redo.mutate({ id: model.id })],
  ]);

  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      {/* The name takes the first line on a phone; the buttons wrap below it. */}
      <Group gap="sm" wrap="wrap" style={{ flex: '1 1 260px', minWidth: 0 }}>
        {title ??
          (canEdit ? (
            <SaveOnBlurInput
              aria-label="Model name"
              value={model.name}
              variant="unstyled"
              size="lg"
              fw={650}
              maw="100%"
              // As wide as the name, so the status badge sits right after it (not 380 px away).
              styles={{ input: { fieldSizing: 'content', minWidth: 120, maxWidth: '100%' } }}
              onSave={(name) => handle.rename.mutateAsync({ id: model.id, name })}
            />
          ) : (
            <Title order={3} fz="lg" fw={650} style={{ overflowWrap: 'anywhere' }}>
              {model.name}
            </Title>
          ))}
        <StatusBadge status={model.status} label={`${model.status} · v${model.versionNumber}`} />
        {!access.loading && !canEdit && <ViewOnlyBadge />}
      </Group>
      <Group gap="xs" wrap="wrap">
        {canEdit && model.hasUnpublishedChanges && (
          <>
            <Tooltip label={blocker ?? 'Publish the changes as the version in use'} multiline maw={360}>
              <Button
                size="xs"
                leftSection={<IconUpload size={14} />}
                loading={handle.publish.isPending}
                aria-disabled={blocker ? true : undefined}
                data-disabled={blocker ? true : undefined}
                onClick={() => !blocker && handle.publish.mutate({ id: model.id })}
              >
                Publish
              </Button>
            </Tooltip>
            <Button.Group>
              <Tooltip label={model.undoLabel ? `Undo: ${model.undoLabel}` : 'Nothing to undo'}>
                <Button
                  size="xs"
                  variant="default"
                  px={8}
                  aria-label="Undo"
                  aria-description={model.undoLabel ?? undefined}
                  aria-disabled={!model.undoLabel || stepping ? true : undefined}
                  data-disabled={!model.undoLabel || stepping ? true : undefined}
                  loading={handle.undo.isPending}
                  onClick={() => model.undoLabel && !stepping && handle.undo.mutate({ id: model.id })}
                >
                  <IconArrowBackUp size={16} />
                </Button>
              </Tooltip>
              <Tooltip label={model.redoLabel ? `Redo: ${model.redoLabel}` : 'Nothing to redo'}>
                <Button
                  size="xs"
                  variant="default"
                  px={8}
                  aria-label="Redo"
                  aria-description={model.redoLabel ?? undefined}
                  aria-disabled={!model.redoLabel || stepping ? true : undefined}
                  data-disabled={!model.redoLabel || stepping ? true : undefined}
                  loading={handle.redo.isPending}
                  onClick={() => model.redoLabel && !stepping && handle.redo.mutate({ id: model.id })}
                >
                  <IconArrowForwardUp size={16} />
                </Button>
              </Tooltip>
            </Button.Group>
            {model.activeVersionId && (
              <Button size="xs" variant="default" color="red" onClick={() => setDiscarding(true)}>
                Discard draft…
              </Button>
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
            {canEdit && (
              <>
                <Menu.Divider />
                <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => setDeleting(true)}>
                  Delete model
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <SqlDialog opened={showSql} sql={model.viewSql} onClose={() => setShowSql(false)} />
      <VersionsDialog
        model={model}
        opened={versions}
        onClose={() => setVersions(false)}
        using={handle.setActive.isPending}
        onUse={
          canEdit
            ? (versionId) => handle.setActive.mutate({ versionId }, { onSuccess: () => setVersions(false) })
            : undefined
        }
      />
      <ConfirmDialog
        opened={discarding}
        danger
        message={DISCARD_DRAFT_PROMPT}
        loading={handle.revert.isPending}
        onCancel={() => setDiscarding(false)}
        onConfirm={() => handle.revert.mutate({ id: model.id }, { onSettled: () => setDiscarding(false) })}
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

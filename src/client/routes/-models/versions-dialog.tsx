import { Badge, Button, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { compareVersions, type VersionChange } from '../../../shared/model-compare';
import { VERSION_STATUS_LABELS, type Model } from '../../../shared/models';
import { formatDateTime } from '../../lib/format';
import { trpc } from '../../trpc';
import { StatusBadge } from './status-badge';
import { Dialog } from '../../components/dialog';

const KIND_COLORS: Record<VersionChange['kind'], string> = { added: 'teal', removed: 'red', changed: 'blue' };

/** Version history: Active shows as 'Used', Draft as 'Unsaved'; pick two to compare, or use an older one. */
export function VersionsDialog({
  model,
  opened,
  onClose,
  onUse,
  using,
}: {
  model: Model;
  opened: boolean;
  onClose: () => void;
  /** Absent for a reader: no 'Use this version'. */
  onUse?: (versionId: string) => void;
  using: boolean;
}) {
  const versions = trpc.models.versions.useQuery({ id: model.id }, { enabled: opened });
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState(false);
  const toggle = (versionId: string) =>
    setPicked((p) => (p.includes(versionId) ? p.filter((v) => v !== versionId) : [...p.slice(-1), versionId]));

  return (
    <>
      <Dialog opened={opened && !comparing} onClose={onClose} title="Version history" size="lg">
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40} />
              <Table.Th>Version</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Modified</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.data?.map((v) => (
              <Table.Tr key={v.versionId}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Compare version ${v.versionNumber}`}
                    checked={picked.includes(v.versionId)}
                    onChange={() => toggle(v.versionId)}
                  />
                </Table.Td>
                <Table.Td>v{v.versionNumber}</Table.Td>
                <Table.Td>
                  <StatusBadge status={v.status} label={VERSION_STATUS_LABELS[v.status]} />
                </Table.Td>
                <Table.Td>{formatDateTime(v.createdAt)}</Table.Td>
                <Table.Td>{formatDateTime(v.modifiedAt)}</Table.Td>
                <Table.Td>
                  {onUse && v.status === 'Inactive' && v.versionId !== model.versionId && (
                    <Button size="compact-xs" variant="light" loading={using} onClick={() => onUse(v.versionId)}>
                      Use this version
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group justify="space-between" mt="md">
          <Text size="xs" c="dimmed">
            Tick two versions to compare them.
          </Text>
          <Button disabled={picked.length !== 2} onClick={() => setComparing(true)}>
            Compare
          </Button>
        </Group>
      </Dialog>
      {comparing && picked.length === 2 && (
        <CompareDialog model={model} versionIds={picked as [string, string]} onClose={() => setComparing(false)} />
      )}
    </>
  );
}

function CompareDialog({
  model,
  versionIds,
  onClose,
}: {
  model: Model;
  versionIds: [string, string];
  onClose: () => void;
}) {
  const [a, b] = [
    trpc.models.getVersion.useQuery({ versionId: versionIds[0] }),
    trpc.models.getVersion.useQuery({ versionId: versionIds[1] }),
  ];
  // Older first, so "added" means added by the newer version.
  const [before, after] =
    a.data && b.data && a.data.versionNumber > b.data.versionNumber ? [b.data, a.data] : [a.data, b.data];
  const names = new Map(model.sources.map((s) => [s.sourceId, s.name]));
  const changes = before && after ? compareVersions(before, after, (id) => names.get(id) ?? id) : null;
  return (
    <Dialog opened onClose={onClose} title="Compare versions" size="lg">
      {!changes && <Text size="sm">Loading…</Text>}
      {changes && before && after && (
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            v{before.versionNumber} → v{after.versionNumber}
          </Text>
          {changes.length === 0 && <Text size="sm">These versions are the same.</Text>}
          {changes.map((change, i) => (
            <Group key={i} gap="xs">
              <Badge color={KIND_COLORS[change.kind]} variant="light" w={90}>
                {change.kind}
              </Badge>
              <Text size="sm" c="dimmed" w={110}>
                {change.area}
              </Text>
              <Text size="sm">{change.name}</Text>
            </Group>
          ))}
        </Stack>
      )}
    </Dialog>
  );
}

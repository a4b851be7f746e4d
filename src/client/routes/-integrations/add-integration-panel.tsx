import { Alert, Avatar, Divider, Skeleton, Stack, Text, TextInput, UnstyledButton, Group } from '@mantine/core';
import { IconPlug, IconSearch } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { IntegrationDefinition } from '../../../shared/integrations';
import { SidePanel } from '../../components/side-panel';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';

const byName = (a: IntegrationDefinition, b: IntegrationDefinition) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

function DefinitionButton({ definition, onPick }: { definition: IntegrationDefinition; onPick: () => void }) {
  return (
    <UnstyledButton onClick={onPick} aria-label={definition.name} p="xs" style={{ borderRadius: 6 }}>
      <Group gap="sm" wrap="nowrap">
        <Avatar src={definition.icon} size={32} radius="sm" color="blue">
          <IconPlug size={18} />
        </Avatar>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={500}>{definition.name}</Text>
          {definition.docs && (
            <Text size="xs" c="dimmed" lineClamp={1}>
              {definition.docs}
            </Text>
          )}
        </Stack>
      </Group>
    </UnstyledButton>
  );
}

/** The add drawer: public definitions, then the account's custom ones, each sorted by name. */
export function AddIntegrationPanel({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const definitions = trpc.integrations.definitions.useQuery(undefined, { enabled: opened });
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLocaleLowerCase();
  const shown = (definitions.data ?? []).filter((d) => d.name.toLocaleLowerCase().includes(needle));
  const publicOnes = shown.filter((d) => !d.isCustom).sort(byName);
  const customOnes = shown.filter((d) => d.isCustom).sort(byName);
  const pick = (definition: IntegrationDefinition) => {
    onClose();
    void navigate({
      to: '/integrations/create/$integrationDefinitionId',
      params: { integrationDefinitionId: definition.id },
    });
  };

  return (
    <SidePanel opened={opened} onClose={onClose} title="Add integration" size="md">
      <Stack gap="sm">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder="Filter integrations..."
          aria-label="Filter integrations"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        {definitions.isPending && <Skeleton h={120} />}
        {definitions.isError && <Alert color="red">{errorMessage(definitions.error)}</Alert>}
        {definitions.data && shown.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            No integrations match the filter.
          </Text>
        )}
        {publicOnes.map((d) => (
          <DefinitionButton key={d.id} definition={d} onPick={() => pick(d)} />
        ))}
        {customOnes.length > 0 && (
          <>
            <Divider label="Custom integrations" labelPosition="left" mt="sm" />
            {customOnes.map((d) => (
              <DefinitionButton key={d.id} definition={d} onPick={() => pick(d)} />
            ))}
          </>
        )}
      </Stack>
    </SidePanel>
  );
}

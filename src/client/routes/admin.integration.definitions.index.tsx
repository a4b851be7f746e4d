import { Badge, Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import type { AdminDefinition } from '../../shared/admin';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { EmptyRow } from '../components/empty-row';
import { formatDate } from '../lib/format';
import { trpc } from '../trpc';
import { AdminPage } from './-admin/admin-page';

/** integrationDefinitionsAdmin: every definition of the installation, with how many integrations use it. */
export const Route = createFileRoute('/admin/integration/definitions/')({
  component: DefinitionsPage,
});

const usedByText = (n: number) => (n === 1 ? 'In use by 1 integration' : `In use by ${n} integrations`);

function visibility(d: AdminDefinition): { label: string; color: string } {
  if (!d.isCustom) return { label: 'Built in', color: 'gray' };
  if (d.isPublic) return { label: 'Custom · public', color: 'blue' };
  return { label: `Custom · ${d.accountName ?? 'no account'}`, color: 'grape' };
}

function DefinitionsPage() {
  const definitions = trpc.admin.definitions.useQuery();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = (definitions.data ?? []).filter(
    (d) => !needle || d.name.toLowerCase().includes(needle) || d.type.toLowerCase().includes(needle),
  );
  return (
    <AdminPage error={definitions.error} errorTitle="Could not load the integration definitions">
      <BreadcrumbBar
        title="Integration definitions"
        back={false}
        actions={
          <Button component={Link} to="/admin/integration/definitions/create" leftSection={<IconPlus size={16} />}>
            Create definition
          </Button>
        }
      />
      <Text c="dimmed" size="sm" mt={-12}>
        What users can add as an integration. Built-in definitions come with the server; custom ones are added here.
      </Text>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Filter by name or type"
        aria-label="Filter definitions"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        maw={360}
      />
      <Paper>
        <Table.ScrollContainer minWidth={720}>
          <Table highlightOnHover aria-label="Integration definitions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>In use</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {definitions.isPending && <EmptyRow cols={5} text="Loading…" />}
              {definitions.data && shown.length === 0 && (
                <EmptyRow
                  cols={5}
                  text={needle ? 'No definition matches the filter.' : 'No integration definitions yet.'}
                />
              )}
              {shown.map((d) => {
                const kind = visibility(d);
                return (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text size="sm" fw={500}>
                          {d.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          Version {d.version}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td>{d.type}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={kind.color}>
                        {kind.label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Text size="sm" c={d.usedBy === 0 ? 'dimmed' : undefined}>
                          {usedByText(d.usedBy)}
                        </Text>
                      </Group>
                    </Table.Td>
                    <Table.Td>{formatDate(d.createdAt)}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </AdminPage>
  );
}

import { Button, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { EmptyRow } from '../components/empty-row';
import { SaveOnBlurInput } from '../components/save-on-blur-input';
import { formatDateTime, formatRecent } from '../lib/format';
import { useLogout, useMe } from '../lib/session';
import { trpc } from '../trpc';
import { rolesText } from './-components/role-select';
import { NotificationPreferencesSection } from './-components/notification-preferences';
import { Section } from './-components/section';

export const Route = createFileRoute('/_app/settings/user')({
  component: UserSettingsPage,
});

function UserSettingsPage() {
  const { data: me } = useMe();
  const utils = trpc.useUtils();
  const rename = trpc.users.rename.useMutation({ onSuccess: () => utils.auth.me.invalidate() });
  const logout = useLogout();
  if (!me) return null;

  return (
    <Stack gap="lg">
      <BreadcrumbBar
        title="User settings"
        back={false}
        actions={
          <Button
            variant="default"
            leftSection={<IconLogout size={16} />}
            onClick={() => logout.mutate()}
            loading={logout.isPending}
          >
            Logout
          </Button>
        }
      />
      <Section title="Profile">
        {/* One field a line on a phone, three abreast from 'sm' up. */}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          <SaveOnBlurInput label="Name" value={me.name} onSave={(name) => rename.mutateAsync({ name })} />
          <TextInput label="Email" value={me.email} readOnly variant="filled" />
          <TextInput label="Roles" value={me.roles.join(', ')} readOnly variant="filled" />
        </SimpleGrid>
      </Section>
      <Section title="Accounts" description="Accounts you are a member of.">
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th>Last login</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {me.accounts.length === 0 && <EmptyRow cols={3} text="You are not a member of any account." />}
            {me.accounts.map((account) => (
              <Table.Tr key={account.id}>
                <Table.Td>
                  <Text size="sm" fw={account.id === me.currentAccountId ? 600 : 400}>
                    {account.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{rolesText(account.roles)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" title={formatDateTime(account.lastLoginAt)}>
                    {formatRecent(account.lastLoginAt)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>
      <NotificationPreferencesSection />
    </Stack>
  );
}

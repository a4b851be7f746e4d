import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { grantableRoles } from '../../shared/roles';
import { BreadcrumbBar } from '../components/breadcrumb-bar';
import { SaveOnBlurInput } from '../components/save-on-blur-input';
import { ViewOnlyBadge } from '../components/view-only-badge';
import { formatDateTime } from '../lib/format';
import { currentAccountOf, useMe } from '../lib/session';
import { useAccess } from '../lib/use-access';
import { trpc } from '../trpc';
import { InviteDialog } from './-components/invite-dialog';
import { InvitesTable } from './-components/invites-table';
import { MembersTable } from './-components/members-table';
import { Section } from './-components/section';

export const Route = createFileRoute('/_app/settings/account')({
  component: AccountSettingsPage,
});

function AccountSettingsPage() {
  const { data: me } = useMe();
  const accountId = me?.currentAccountId ?? '';
  const account = trpc.accounts.get.useQuery({ accountId }, { enabled: accountId !== '' });
  const utils = trpc.useUtils();
  const rename = trpc.accounts.rename.useMutation({
    onSuccess: () => Promise.all([utils.accounts.get.invalidate(), utils.auth.me.invalidate()]),
  });
  const [inviting, setInviting] = useState(false);
  const access = useAccess();

  if (!me) return null;
  if (!accountId) {
    return <Alert color="yellow">You are not a member of any account. Ask an account owner to invite you.</Alert>;
  }
  const memberRoles = currentAccountOf(me)?.roles ?? [];
  const { canManage, canManageOwners } = access;

  return (
    <Stack gap="lg">
      <BreadcrumbBar
        title="Account settings"
        back={false}
        mark={
          !canManage && <ViewOnlyBadge reason="Your role in this account lets you see its members, not change them." />
        }
        actions={
          canManage && (
            <Button leftSection={<IconUserPlus size={16} />} onClick={() => setInviting(true)}>
              Invite new user
            </Button>
          )
        }
      />
      {account.isError && <Alert color="red">{account.error.message}</Alert>}
      <Section title="Account">
        {account.data ? (
          <Group align="flex-end" gap="xl">
            <SaveOnBlurInput
              label="Account name"
              value={account.data.name}
              readOnly={!canManage}
              variant={canManage ? 'default' : 'filled'}
              w={360}
              maw="100%"
              onSave={(name) => rename.mutateAsync({ accountId, name })}
            />
            <Stack gap={2}>
              <Text size="sm" fw={500}>
                Created at
              </Text>
              <Text size="sm" c="dimmed" lh="36px">
                {formatDateTime(account.data.createdAt)}
              </Text>
            </Stack>
          </Group>
        ) : (
          <Skeleton h={60} />
        )}
      </Section>
      <Section
        title="Members"
        description={
          canManage && !canManageOwners
            ? 'People who can sign in to this account. Only owners can change or remove an owner, or make someone an owner.'
            : 'People who can sign in to this account.'
        }
      >
        {account.data ? (
          <MembersTable
            members={account.data.members}
            memberRoles={memberRoles}
            userRoles={me.roles}
            currentUserId={me.id}
          />
        ) : (
          <Skeleton h={120} />
        )}
      </Section>
      <Section title="User invites" description="Invitations waiting to be accepted.">
        {account.data ? (
          <InvitesTable invitations={account.data.invitations} memberRoles={memberRoles} userRoles={me.roles} />
        ) : (
          <Skeleton h={80} />
        )}
      </Section>
      <InviteDialog
        opened={inviting}
        onClose={() => setInviting(false)}
        choices={grantableRoles(memberRoles, me.roles)}
      />
    </Stack>
  );
}

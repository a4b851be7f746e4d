import { Button, Group, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Invitation } from '../../../shared/accounts';
import { canGrantRoles, canManageAccount } from '../../../shared/roles';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyRow } from '../../components/empty-row';
import { trpc } from '../../trpc';
import { rolesText } from './role-select';

/**
 * Pending invitations; resend and cancel are shown to all, usable by owners and admins, and an
 * invitation to the owner role only by owners (as the server holds it).
 */
export function InvitesTable({
  invitations,
  memberRoles,
  userRoles,
}: {
  invitations: Invitation[];
  memberRoles: readonly string[];
  userRoles: readonly string[];
}) {
  const utils = trpc.useUtils();
  const resend = trpc.accounts.resendInvite.useMutation({
    onSuccess: (_data, input) =>
      notifications.show({ color: 'teal', message: `Invitation sent again to ${input.email}.` }),
  });
  const cancel = trpc.accounts.cancelInvite.useMutation({ onSettled: () => utils.accounts.get.invalidate() });
  const [cancelling, setCancelling] = useState<Invitation | null>(null);
  const canManage = canManageAccount(memberRoles, userRoles);
  /** Why the caller may not resend or cancel this invitation, or null when they may. */
  const refusal = (invite: Invitation): string | null => {
    if (!canManage) return 'Only owners and admins can change invitations';
    if (!canGrantRoles(memberRoles, userRoles, invite.roles))
      return 'Only owners can change an invitation to the owner role';
    return null;
  };

  return (
    <>
      <Table.ScrollContainer minWidth={560}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th w={200} aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.length === 0 && <EmptyRow cols={4} text="No pending invites" />}
            {invitations.map((invite) => (
              <Table.Tr key={invite.email} data-testid={`invite-${invite.email}`}>
                <Table.Td>
                  <Text size="sm">{invite.name || '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{invite.email}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{rolesText(invite.roles)}</Text>
                </Table.Td>
                <Table.Td>
                  <Tooltip label={refusal(invite) ?? ''} disabled={refusal(invite) === null}>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="light"
                        disabled={refusal(invite) !== null}
                        loading={resend.isPending && resend.variables?.email === invite.email}
                        onClick={() => resend.mutate({ email: invite.email })}
                      >
                        Resend
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        disabled={refusal(invite) !== null}
                        onClick={() => setCancelling(invite)}
                      >
                        Cancel
                      </Button>
                    </Group>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={cancelling !== null}
        danger
        loading={cancel.isPending}
        message={`Cancel the invitation of ${cancelling?.email ?? ''}? The link in their e-mail will stop working.`}
        onCancel={() => setCancelling(null)}
        onConfirm={() =>
          cancelling && cancel.mutate({ email: cancelling.email }, { onSettled: () => setCancelling(null) })
        }
      />
    </>
  );
}

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
 * Pending invitations. Owners and admins get Resend and Cancel; an admin sees them disabled, with
 * the reason, on an invitation to the owner role (as the server holds it). A read_only member sees
 * the list without actions.
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
    if (!canGrantRoles(memberRoles, userRoles, invite.roles))
      return 'Only owners can change an invitation to the owner role';
    return null;
  };

  return (
    <>
      {/* Empty, it fits the card: 'No pending invites' is never cut off on a phone. */}
      <Table.ScrollContainer minWidth={invitations.length === 0 ? 0 : 560}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Roles</Table.Th>
              {canManage && <Table.Th w={200} aria-label="Actions" />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.length === 0 && <EmptyRow cols={canManage ? 4 : 3} text="No pending invites" />}
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
                {canManage && (
                  <Table.Td>
                    <Tooltip label={refusal(invite) ?? ''} disabled={refusal(invite) === null}>
                      <Group
                        gap="xs"
                        justify="flex-end"
                        wrap="nowrap"
                        tabIndex={refusal(invite) === null ? undefined : 0}
                        aria-label={refusal(invite) ?? undefined}
                      >
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
                )}
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

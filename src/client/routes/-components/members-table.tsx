import { ActionIcon, Avatar, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconLock, IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import type { Member } from '../../../shared/accounts';
import { canManageAccount, canManageMember, grantableRoles } from '../../../shared/roles';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyRow } from '../../components/empty-row';
import { formatDateTime, formatRecent, initials } from '../../lib/format';
import { trpc } from '../../trpc';
import { RoleSelect, primaryRole, rolesText } from './role-select';

interface MembersTableProps {
  members: Member[];
  /** The caller's roles in this account and their global roles: what they may change. */
  memberRoles: readonly string[];
  userRoles: readonly string[];
  currentUserId: string;
}

/** Why an account admin cannot touch an owner's row (owner-only, as the server holds it). */
export const OWNER_ONLY = 'Only owners can change or remove an owner';

/**
 * Members with their role and last login. The role dropdown and the remove button appear only
 * where the caller may use them: a read_only member sees text and no actions; an admin sees an
 * owner's role as text with a lock saying why, no remove button there, and no 'Owner' choice. A refusal by the server still shows its message in the error snackbar.
 */
export function MembersTable({ members, memberRoles, userRoles, currentUserId }: MembersTableProps) {
  const choices = grantableRoles(memberRoles, userRoles);
  const mayManage = (member: Member) => canManageMember(memberRoles, userRoles, member.roles);
  const manager = canManageAccount(memberRoles, userRoles);
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.accounts.get.invalidate(), utils.auth.me.invalidate()]);
  const changeRoles = trpc.accounts.changeRoles.useMutation({ onSettled: refresh });
  const remove = trpc.accounts.removeMember.useMutation({ onSettled: refresh });
  const [removing, setRemoving] = useState<Member | null>(null);

  return (
    <>
      <Table.ScrollContainer minWidth={640}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Member</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Last login</Table.Th>
              {manager && <Table.Th w={60} aria-label="Actions" />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.length === 0 && <EmptyRow cols={manager ? 5 : 4} text="No users." />}
            {members.map((member) => (
              <Table.Tr key={member.id} data-testid={`member-${member.username}`}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <Avatar size={30} radius="xl" color="blue">
                      {initials(member.name, member.username)}
                    </Avatar>
                    <Text size="sm" fw={500}>
                      {member.name}
                      {member.id === currentUserId && (
                        <Text span c="dimmed" size="xs">
                          {' '}
                          (you)
                        </Text>
                      )}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{member.username}</Text>
                </Table.Td>
                <Table.Td>
                  {mayManage(member) ? (
                    <RoleSelect
                      ariaLabel={`Role of ${member.username}`}
                      value={primaryRole(member.roles)}
                      choices={choices}
                      disabled={changeRoles.isPending}
                      onChange={(role) => changeRoles.mutate({ userName: member.username, roles: [role] })}
                    />
                  ) : manager ? (
                    <Tooltip label={OWNER_ONLY}>
                      <Group
                        gap={4}
                        wrap="nowrap"
                        tabIndex={0}
                        w="fit-content"
                        aria-label={`${rolesText(member.roles)}: ${OWNER_ONLY}`}
                      >
                        <Text size="sm">{rolesText(member.roles)}</Text>
                        <IconLock size={14} color="var(--mantine-color-dimmed)" aria-hidden />
                      </Group>
                    </Tooltip>
                  ) : (
                    <Text size="sm">{rolesText(member.roles)}</Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Tooltip label={formatDateTime(member.lastLoginAt) || 'Never signed in'}>
                    <Text size="sm">{formatRecent(member.lastLoginAt)}</Text>
                  </Tooltip>
                </Table.Td>
                {manager && (
                  <Table.Td>
                    {mayManage(member) && member.id !== currentUserId && (
                      <Tooltip label="Remove from account">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${member.username}`}
                          onClick={() => setRemoving(member)}
                        >
                          <IconUserMinus size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={removing !== null}
        danger
        loading={remove.isPending}
        message={`Remove ${removing?.name ?? ''} (${removing?.username ?? ''}) from this account?`}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ userId: removing.id }, { onSettled: () => setRemoving(null) })}
      />
    </>
  );
}

import { Badge, Group } from '@mantine/core';
import { ROLE_LABELS, type MemberRole } from '../../../shared/roles';

const label = (role: string) => ROLE_LABELS[role as MemberRole] ?? role;

/** Roles as badges: the global or account admin role stands out. */
export function RoleBadges({ roles, member = false }: { roles: readonly string[]; member?: boolean }) {
  return (
    <Group gap={4} wrap="wrap">
      {roles.map((role) => (
        <Badge key={role} variant="light" color={role === 'admin' || role === 'owner' ? 'grape' : 'gray'}>
          {member ? label(role) : role}
        </Badge>
      ))}
    </Group>
  );
}

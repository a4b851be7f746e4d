/** Roles a member holds inside one account (spec section 6). */
export const MEMBER_ROLES = ['owner', 'admin', 'read_only'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Global roles of a user across the installation. */
export const USER_ROLES = ['admin', 'user'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** The role an invite gets when none is chosen. */
export const DEFAULT_INVITE_ROLES: MemberRole[] = ['read_only'];

export function isGlobalAdmin(roles: readonly string[]): boolean {
  return roles.includes('admin');
}

/** Owners and admins of an account may manage it; read_only members change nothing. */
export function canManageAccount(memberRoles: readonly string[], userRoles: readonly string[]): boolean {
  return isGlobalAdmin(userRoles) || memberRoles.includes('owner') || memberRoles.includes('admin');
}

export function canWrite(memberRoles: readonly string[], userRoles: readonly string[]): boolean {
  return isGlobalAdmin(userRoles) || memberRoles.some((r) => r === 'owner' || r === 'admin');
}

export const ROLE_LABELS: Record<MemberRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  read_only: 'Read only',
};

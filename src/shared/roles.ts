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

/**
 * Who may touch the owner role: owners of the account and global admins. An account admin manages
 * members up to admin, never above, and never touches an owner; so an admin cannot make themself
 * owner or remove the real owner. The server holds these rules (modules/accounts/role-rules.ts);
 * the client uses the same functions to offer only what the caller may do.
 */
export function canManageOwners(memberRoles: readonly string[], userRoles: readonly string[]): boolean {
  return isGlobalAdmin(userRoles) || memberRoles.includes('owner');
}

/** The roles the caller may give: all of them for owners and global admins, up to admin for admins. */
export function grantableRoles(memberRoles: readonly string[], userRoles: readonly string[]): MemberRole[] {
  if (!canManageAccount(memberRoles, userRoles)) return [];
  if (canManageOwners(memberRoles, userRoles)) return [...MEMBER_ROLES];
  return MEMBER_ROLES.filter((r) => r !== 'owner');
}

/** Whether the caller may give exactly these roles (in an invitation or a role change). */
export function canGrantRoles(
  memberRoles: readonly string[],
  userRoles: readonly string[],
  roles: readonly string[],
): boolean {
  const allowed: readonly string[] = grantableRoles(memberRoles, userRoles);
  return roles.every((r) => allowed.includes(r));
}

/**
 * Whether the caller may change the roles of, or remove, a member (or a pending invitation)
 * holding `targetRoles`: managers may, but only owners and global admins when the target is an
 * owner. Never removing oneself and keeping one owner are checked apart.
 */
export function canManageMember(
  memberRoles: readonly string[],
  userRoles: readonly string[],
  targetRoles: readonly string[],
): boolean {
  if (!canManageAccount(memberRoles, userRoles)) return false;
  return !targetRoles.includes('owner') || canManageOwners(memberRoles, userRoles);
}

export const ROLE_LABELS: Record<MemberRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  read_only: 'Read only',
};

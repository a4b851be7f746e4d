import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INVITE_ROLES,
  MEMBER_ROLES,
  ROLE_LABELS,
  USER_ROLES,
  canGrantRoles,
  canManageAccount,
  canManageMember,
  canManageOwners,
  canWrite,
  grantableRoles,
  isGlobalAdmin,
} from '../../src/shared/roles';

describe('roles', () => {
  it('lists the member and global roles of the spec, with read_only as the invite default', () => {
    expect(MEMBER_ROLES).toEqual(['owner', 'admin', 'read_only']);
    expect(USER_ROLES).toEqual(['admin', 'user']);
    expect(DEFAULT_INVITE_ROLES).toEqual(['read_only']);
    expect(ROLE_LABELS).toEqual({ owner: 'Owner', admin: 'Admin', read_only: 'Read only' });
  });

  it('isGlobalAdmin looks for admin in the global roles', () => {
    expect(isGlobalAdmin(['admin', 'user'])).toBe(true);
    expect(isGlobalAdmin(['user'])).toBe(false);
    expect(isGlobalAdmin([])).toBe(false);
    expect(isGlobalAdmin(['Admin'])).toBe(false);
  });

  const matrix: Array<[string[], string[], boolean]> = [
    [['owner'], ['user'], true],
    [['admin'], ['user'], true],
    [['read_only'], ['user'], false],
    [['read_only', 'admin'], ['user'], true],
    [[], ['user'], false],
    [['read_only'], ['admin', 'user'], true],
    [[], ['admin', 'user'], true],
    [['viewer'], ['user'], false],
  ];

  it.each(matrix)('member roles %j with global roles %j: may manage and write = %s', (member, global, allowed) => {
    expect(canManageAccount(member, global)).toBe(allowed);
    expect(canWrite(member, global)).toBe(allowed);
  });

  const owners: Array<[string[], string[], boolean]> = [
    [['owner'], ['user'], true],
    [['admin'], ['user'], false],
    [['admin', 'read_only'], ['user'], false],
    [['read_only'], ['user'], false],
    [[], ['user'], false],
    [['read_only'], ['admin', 'user'], true],
    [[], ['admin', 'user'], true],
  ];

  it.each(owners)('member roles %j with global roles %j: may touch the owner role = %s', (member, global, allowed) => {
    expect(canManageOwners(member, global)).toBe(allowed);
    expect(canGrantRoles(member, global, ['owner'])).toBe(allowed);
    expect(canManageMember(member, global, ['owner'])).toBe(allowed);
    expect(grantableRoles(member, global).includes('owner')).toBe(allowed);
  });

  it('lets an admin give and manage roles up to admin, never above', () => {
    expect(grantableRoles(['admin'], ['user'])).toEqual(['admin', 'read_only']);
    expect(grantableRoles(['owner'], ['user'])).toEqual(['owner', 'admin', 'read_only']);
    expect(grantableRoles(['read_only'], ['user'])).toEqual([]);
    expect(canGrantRoles(['admin'], ['user'], ['admin', 'read_only'])).toBe(true);
    expect(canGrantRoles(['admin'], ['user'], ['read_only', 'owner'])).toBe(false);
    expect(canGrantRoles(['read_only'], ['user'], ['read_only'])).toBe(false);
    expect(canGrantRoles(['admin'], ['user'], ['boss'])).toBe(false);
    expect(canManageMember(['admin'], ['user'], ['admin'])).toBe(true);
    expect(canManageMember(['admin'], ['user'], ['read_only'])).toBe(true);
    expect(canManageMember(['admin'], ['user'], ['owner', 'read_only'])).toBe(false);
    expect(canManageMember(['read_only'], ['user'], ['read_only'])).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INVITE_ROLES,
  MEMBER_ROLES,
  ROLE_LABELS,
  USER_ROLES,
  canManageAccount,
  canWrite,
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
});

import { canManageAccount, canManageOwners, canWrite } from '../../shared/roles';
import { currentAccountOf, useMe } from './session';

export interface Access {
  /** Still loading the current user: show no edit control yet (never flash one to a reader). */
  loading: boolean;
  /** May change data and settings of the current account (owners, admins, global admins). */
  canWrite: boolean;
  /** May manage members and the account (same people today; kept apart for the screens that ask). */
  canManage: boolean;
  /** May give or take the owner role and do other owner-only actions. */
  canManageOwners: boolean;
}

/**
 * What the signed-in user may do in their current account, from the same rules the server checks
 * (shared/roles.ts). Screens use it to show a view mode (no edit controls, a "View only" mark) to
 * read_only members instead of controls that would fail.
 */
export function useAccess(): Access {
  const { data: me, isPending } = useMe();
  if (!me) return { loading: isPending, canWrite: false, canManage: false, canManageOwners: false };
  const memberRoles = currentAccountOf(me)?.roles ?? [];
  return {
    loading: false,
    canWrite: canWrite(memberRoles, me.roles),
    canManage: canManageAccount(memberRoles, me.roles),
    canManageOwners: canManageOwners(memberRoles, me.roles),
  };
}

/**
 * Notifications of account membership events, sent after the change is committed: the inviter
 * learns their invitation was accepted; a member learns their roles changed (unless they changed
 * their own). Both point at the account's members page.
 */
import { ROLE_LABELS, type MemberRole } from '../../../shared/roles';
import type { Deps } from '../../context';
import { notify } from '../notifications/notify';

const roleText = (roles: readonly string[]) =>
  roles.map((r) => (r in ROLE_LABELS ? ROLE_LABELS[r as MemberRole] : r)).join(', ');

async function accountName(deps: Deps, accountId: string): Promise<string> {
  const row = await deps.db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
  return row?.name ?? 'the account';
}

export async function notifyInvitationAccepted(
  deps: Deps,
  event: {
    accountId: string;
    inviterId: string | null;
    member: { id: string; name: string; email: string };
    roles: string[];
  },
): Promise<void> {
  if (!event.inviterId || event.inviterId === event.member.id) return;
  const who = event.member.name ? `${event.member.name} (${event.member.email})` : event.member.email;
  await notify(deps, {
    accountId: event.accountId,
    userIds: [event.inviterId],
    kind: 'InvitationAccepted',
    severity: 'Info',
    title: 'Invitation accepted',
    body: `${who} accepted your invitation to ${await accountName(deps, event.accountId)} as ${roleText(event.roles)}.`,
    target: { type: 'Account', id: event.accountId },
  });
}

export async function notifyRolesChanged(
  deps: Deps,
  event: {
    accountId: string;
    actor: { id: string; name: string; email: string };
    memberId: string;
    before: string[];
    after: string[];
  },
): Promise<void> {
  if (event.memberId === event.actor.id) return;
  const same = event.before.length === event.after.length && event.before.every((r) => event.after.includes(r));
  if (same) return;
  await notify(deps, {
    accountId: event.accountId,
    userIds: [event.memberId],
    kind: 'RoleChanged',
    severity: 'Info',
    title: 'Your roles changed',
    body: `${event.actor.name || event.actor.email} changed your roles in ${await accountName(deps, event.accountId)} from ${roleText(event.before)} to ${roleText(event.after)}.`,
    target: { type: 'Account', id: event.accountId },
  });
}

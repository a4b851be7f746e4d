import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { parseRoles } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { countUsers, findUserByEmail, insertUser, nameFromEmail } from '../users/repo';
import { addMembership, insertAccount, setCurrentAccount } from './repo';
import { inviterMayStillGrant } from './role-rules';

async function createOwnAccount(db: Db, user: UserRow, now: Date): Promise<void> {
  const account = await insertAccount(db, `${user.name}'s account`, now);
  await addMembership(db, { accountId: account.id, userId: user.id, roles: ['owner'], now });
  await setCurrentAccount(db, user.id, account.id);
  user.current_account_id = account.id;
}

/**
 * The user behind a proven address, created when the rules allow: the very first user becomes a
 * global admin and owner of a new account; later an unknown address needs a pending invitation,
 * or open sign-up (then it gets an account of its own). Null when the address may not sign in.
 */
export async function provisionUser(
  db: Db,
  config: Config,
  email: string,
  name: string,
  now: Date,
): Promise<UserRow | null> {
  const existing = await findUserByEmail(db, email);
  if (existing) return existing;

  if ((await countUsers(db)) === 0) {
    const user = await insertUser(db, { email, name, roles: ['admin', 'user'], now });
    await createOwnAccount(db, user, now);
    return user;
  }

  const invite = await db
    .selectFrom('invitations')
    .select(['name'])
    .where('email', '=', email)
    .where('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (invite) {
    return insertUser(db, { email, name: name || invite.name || nameFromEmail(email), roles: ['user'], now });
  }

  if (config.signup === 'open') {
    const user = await insertUser(db, { email, name, roles: ['user'], now });
    await createOwnAccount(db, user, now);
    return user;
  }
  return null;
}

/**
 * Signing in proves the address, so every pending invitation for it is accepted on the way, as
 * the invitation link would (an invitation whose sender may no longer give its roles is left
 * pending, granting nothing); returns the ids of the accounts joined.
 */
export async function acceptPendingInvitations(db: Db, user: UserRow, now: Date): Promise<string[]> {
  const invites = await db
    .selectFrom('invitations')
    .select(['id', 'account_id', 'roles', 'invited_by'])
    .where('email', '=', user.email)
    .where('expires_at', '>', now.toISOString())
    .execute();
  const joined: string[] = [];
  for (const invite of invites) {
    if (!(await inviterMayStillGrant(db, invite))) continue;
    await addMembership(db, { accountId: invite.account_id, userId: user.id, roles: parseRoles(invite.roles), now });
    await db.deleteFrom('invitations').where('id', '=', invite.id).execute();
    joined.push(invite.account_id);
  }
  return joined;
}

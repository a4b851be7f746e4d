import type { Db } from '../../db/database';
import { parseRoles, serialiseRoles } from '../../db/database';
import type { AccountRow, MembershipRow } from '../../db/schema';
import { newId } from '../../db/ids';

export async function insertAccount(db: Db, name: string, now: Date): Promise<AccountRow> {
  const row: AccountRow = { id: newId(), name, created_at: now.toISOString() };
  await db.insertInto('accounts').values(row).execute();
  return row;
}

export async function findAccount(db: Db, accountId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

export async function findMembership(db: Db, accountId: string, userId: string): Promise<MembershipRow | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Adds the user to the account; an existing membership keeps its roles. */
export async function addMembership(
  db: Db,
  values: { accountId: string; userId: string; roles: string[]; now: Date },
): Promise<void> {
  await db
    .insertInto('memberships')
    .values({
      account_id: values.accountId,
      user_id: values.userId,
      roles: serialiseRoles(values.roles),
      created_at: values.now.toISOString(),
      last_login_at: null,
    })
    .onConflict((oc) => oc.columns(['account_id', 'user_id']).doNothing())
    .execute();
}

export async function countOwners(db: Db, accountId: string): Promise<number> {
  const rows = await db.selectFrom('memberships').select('roles').where('account_id', '=', accountId).execute();
  return rows.filter((r) => parseRoles(r.roles).includes('owner')).length;
}

/** Marks the sign-in on the user and on their membership of the account they land in. */
export async function recordLogin(db: Db, userId: string, accountId: string | null, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.updateTable('users').set({ last_login_at: at }).where('id', '=', userId).execute();
  if (accountId) {
    await db
      .updateTable('memberships')
      .set({ last_login_at: at })
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .execute();
  }
}

export async function setCurrentAccount(db: Db, userId: string, accountId: string | null): Promise<void> {
  await db.updateTable('users').set({ current_account_id: accountId }).where('id', '=', userId).execute();
}

/** The account a user lands in: the current one while still a member, else their oldest membership. */
export async function landingAccountId(db: Db, userId: string, current: string | null): Promise<string | null> {
  if (current && (await findMembership(db, current, userId))) return current;
  const first = await db
    .selectFrom('memberships')
    .select('account_id')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('account_id')
    .executeTakeFirst();
  return first?.account_id ?? null;
}

export async function findMemberByEmail(
  db: Db,
  accountId: string,
  email: string,
): Promise<{ userId: string; roles: string[] } | undefined> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'memberships.roles'])
    .where('memberships.account_id', '=', accountId)
    .where('users.email', '=', email)
    .executeTakeFirst();
  return row ? { userId: row.id, roles: parseRoles(row.roles) } : undefined;
}

import type { Db } from '../../db/database';
import { serialiseRoles } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { newId } from '../../db/ids';

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A readable default name from the address, e.g. "jane.doe@x.io" gives "Jane Doe". */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? email;
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}

export async function insertUser(
  db: Db,
  values: { email: string; name: string; roles: string[]; now: Date },
): Promise<UserRow> {
  const row: UserRow = {
    id: newId(),
    email: values.email,
    name: values.name || nameFromEmail(values.email),
    roles: serialiseRoles(values.roles),
    current_account_id: null,
    created_at: values.now.toISOString(),
    last_login_at: null,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

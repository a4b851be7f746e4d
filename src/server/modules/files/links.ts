import { randomBytes } from 'node:crypto';
import { FILE_MESSAGES, SHARE_EXPIRY_DAYS, SHARE_EXPIRY_TOLERANCE_MS, type ShareRequest } from '../../../shared/files';
import type { Db } from '../../db/database';
import type { FileLinkRow } from '../../db/schema';
import { badInput } from '../../errors';

const DAY_MS = 24 * 60 * 60_000;
const DAY_CHOICES = SHARE_EXPIRY_DAYS.filter((d): d is Exclude<typeof d, null> => d !== null);

/** A link's address: 192 random bits, base64url (32 characters), unguessable. */
export function newShareToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * When a new link expires: never (null), or now + one of 1, 7, 30, 365 days. A date-time sent by a
 * client is matched to the choice it stands for (its clock may differ from ours by up to
 * SHARE_EXPIRY_TOLERANCE_MS) and the expiry is counted on our clock, so no other expiry is possible.
 */
export function expiryOf(expiresAt: ShareRequest['expiresAt'], now: Date): string | null {
  if (expiresAt === null) return null;
  let days: number | undefined;
  if (typeof expiresAt === 'number') {
    days = DAY_CHOICES.find((d) => d === expiresAt);
  } else {
    const ahead = Date.parse(expiresAt) - now.getTime();
    days = DAY_CHOICES.find((d) => Math.abs(ahead - d * DAY_MS) <= SHARE_EXPIRY_TOLERANCE_MS);
  }
  if (days === undefined) throw badInput(FILE_MESSAGES.badExpiry);
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

/** Links that open the file now: not revoked, not expired. Timestamps are ISO text in UTC, so they compare as text. */
export async function liveLinks(db: Db, fileIds: readonly string[], now: Date): Promise<Map<string, FileLinkRow>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('file_links')
    .selectAll()
    .where('file_id', 'in', fileIds)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .orderBy('created_at', 'asc')
    .execute();
  // The newest wins (there is one at most: sharing again revokes the others).
  return new Map(rows.map((r) => [r.file_id, r]));
}

/** The link of a token if it opens its file now. */
export async function liveLinkByToken(db: Db, token: string, now: Date): Promise<FileLinkRow | undefined> {
  const link = await db.selectFrom('file_links').selectAll().where('token', '=', token).executeTakeFirst();
  if (!link || link.revoked_at !== null) return undefined;
  if (link.expires_at !== null && link.expires_at <= now.toISOString()) return undefined;
  return link;
}

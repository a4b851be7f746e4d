import { createHmac, randomBytes } from 'node:crypto';

/** A fresh random token for links and session cookies (256 bits, URL-safe). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Tokens are stored only as a keyed hash: a leaked database cannot be used to sign in, and
 * without the server secret the hashes cannot even be checked against guesses.
 */
export function tokenHasher(secret: string): (token: string) => string {
  return (token) => createHmac('sha256', secret).update(token).digest('hex');
}

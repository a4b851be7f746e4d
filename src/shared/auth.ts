import { z } from 'zod';
import { LIMITS } from './limits';
import { MESSAGES } from './messages';
import { EMAIL_PATTERN } from './validation';

export const emailSchema = z
  .string()
  .trim()
  .max(320)
  .regex(EMAIL_PATTERN, MESSAGES.invalidEmail)
  .transform((v) => v.toLowerCase());

export const loginRequestSchema = z.object({
  email: emailSchema,
  /** Where to go after confirming; only paths on this site are kept. */
  returnUrl: z.string().max(2_000).optional(),
  /** Full name, used when the address becomes a new user (open sign-up or register page). */
  name: z.string().trim().max(LIMITS.nameMaxLength).optional(),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;
export type LoginRequestInput = z.output<typeof loginRequestSchema>;

/** POST /api/login's query: where to go after confirming, as the login page passes it on. */
export const loginQuerySchema = loginRequestSchema.pick({ returnUrl: true });

export const tokenSchema = z.object({ token: z.string().min(10).max(200) });
export type TokenInput = z.output<typeof tokenSchema>;

export const confirmResultSchema = z.object({ returnUrl: z.string().nullable() });
export type ConfirmResult = z.infer<typeof confirmResultSchema>;

export const meAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  lastLoginAt: z.string().nullable(),
});

/** The current user of spec section 3. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  currentAccountId: z.string().nullable(),
  accounts: z.array(meAccountSchema),
});
export type Me = z.infer<typeof meSchema>;
export type MeAccount = z.infer<typeof meAccountSchema>;

/**
 * Keeps a returnUrl only when it points at this site: a path starting with a single slash,
 * or an absolute URL on `origin`. Anything else (other hosts, protocol-relative, javascript:)
 * gives null so the caller falls back to the root.
 */
export function safeReturnUrl(value: string | null | undefined, origin: string): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  if (!value.startsWith('/') && !value.startsWith(origin)) return null;
  if (value.startsWith('//') || value.startsWith('/\\')) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can normalise into a protocol-relative path: '/..//evil.example' gives '//evil.example'.
  if (path.startsWith('//')) return null;
  if (path.startsWith('/login') || path.startsWith('/confirm')) return null;
  return path;
}

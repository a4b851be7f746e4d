import type { FastifyReply } from 'fastify';
import { LIMITS } from '../../shared/limits';
import type { Config } from '../config';
import { SESSION_COOKIE } from '../auth/sessions';

/** HttpOnly so scripts never see it, SameSite=Lax against cross-site posts, Secure on https. */
export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    maxAge: LIMITS.sessionDays * 24 * 60 * 60,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies });
}

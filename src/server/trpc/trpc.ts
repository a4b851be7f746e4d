import { TRPCError, initTRPC } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { LIMITS } from '../../shared/limits';
import { MESSAGES } from '../../shared/messages';
import { isGlobalAdmin } from '../../shared/roles';
import type { AccountContext, Deps } from '../context';
import { parseRoles } from '../db/database';
import type { UserRow } from '../db/schema';
import { clientError } from '../client-errors';
import { type ErrorKind } from '../errors';
import { tooDeepMessage, valueTooDeep } from '../json-depth';
import type { Services } from '../services';

export interface TrpcContext {
  deps: Deps;
  services: Services;
  user: UserRow | null;
  sessionToken: string | undefined;
  clientKey: string;
  userAgent: string | null;
  setSession: (token: string) => void;
  clearSession: () => void;
  /** The caller's current account, resolved once per HTTP request (a batch's calls share it). */
  resolveAccount: () => Promise<AccountContext>;
}

const TRPC_CODES: Record<ErrorKind, TRPC_ERROR_CODE_KEY> = {
  BadInput: 'BAD_REQUEST',
  NotSignedIn: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  TooManyRequests: 'TOO_MANY_REQUESTS',
};

/** The first readable problem of a schema failure, e.g. "email: Provide an email adress". */
function firstIssue(cause: unknown): string | null {
  if (!cause || typeof cause !== 'object' || !('issues' in cause) || !Array.isArray(cause.issues)) return null;
  // Standard-schema issues: a path segment is a key or an object holding one.
  const issue = cause.issues[0] as { message?: string; path?: Array<PropertyKey | { key: PropertyKey }> } | undefined;
  if (!issue?.message) return null;
  const path = issue.path?.map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const message =
      error.code === 'INTERNAL_SERVER_ERROR'
        ? MESSAGES.internal
        : error.code === 'BAD_REQUEST'
          ? (firstIssue(error.cause) ?? shape.message)
          : shape.message;
    return { ...shape, message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus } };
  },
});

/**
 * Turns the services' AppError (and library errors that are the caller's doing, see client-errors.ts)
 * into the matching TRPCError; other errors stay 500s.
 */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  const cause = result.ok ? null : clientError(result.error.cause);
  if (cause) throw new TRPCError({ code: TRPC_CODES[cause.kind], message: cause.message, cause });
  return result;
});

/** Inputs nest at most LIMITS.jsonMaxDepth levels, as REST bodies do (http/json-body.ts). */
const limitInputDepth = t.middleware(async ({ getRawInput, next }) => {
  // Input that cannot be read is left to the procedure: one without input never reads it.
  const raw = await getRawInput().catch(() => undefined);
  if (valueTooDeep(raw, LIMITS.jsonMaxDepth)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: tooDeepMessage(LIMITS.jsonMaxDepth) });
  }
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapAppErrors).use(limitInputDepth);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.notSignedIn });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Scoped to the caller's current account: ctx.account carries accountId and the caller's roles. */
export const accountProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const account = await ctx.resolveAccount();
  return next({ ctx: { ...ctx, account } });
});

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!isGlobalAdmin(parseRoles(ctx.user.roles))) {
    throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGES.notAllowed });
  }
  return next();
});

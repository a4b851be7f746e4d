import {
  safeReturnUrl,
  type ConfirmResult,
  type LoginRequestInput,
  type Me,
  type TokenInput,
} from '../../../shared/auth';
import { LIMITS } from '../../../shared/limits';
import { MESSAGES } from '../../../shared/messages';
import type { Deps } from '../../context';
import { parseRoles } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { addMinutes } from '../../db/ids';
import { badInput, tooManyRequests } from '../../errors';
import { loginMail } from '../../mail/templates';
import { createSession, revokeSession } from '../../auth/sessions';
import { HUB_ERRORS } from '../../hubs/protocol';
import { newToken } from '../../auth/tokens';
import { acceptPendingInvitations, provisionUser } from '../accounts/provisioning';
import { countUsers, findUserByEmail } from '../users/repo';
import { landingAccountId, recordLogin, setCurrentAccount } from '../accounts/repo';

export function createAuthService(deps: Deps) {
  const { db, config, clock } = deps;

  /** Whether this address may receive a link; unknown addresses are told nothing either way. */
  async function mayReceiveLink(email: string): Promise<boolean> {
    if (await findUserByEmail(db, email)) return true;
    if (config.signup === 'open') return true;
    if ((await countUsers(db)) === 0) return true;
    const invite = await db
      .selectFrom('invitations')
      .select('id')
      .where('email', '=', email)
      .where('expires_at', '>', clock().toISOString())
      .executeTakeFirst();
    return invite !== undefined;
  }

  return {
    /**
     * Sends a login link. The answer is the same whether or not the address is known, so the call
     * cannot be used to find out who has an account.
     */
    async requestLogin(input: LoginRequestInput, clientKey: string): Promise<void> {
      const limits = config.loginLimits;
      const clientWait = deps.loginLimiter.wait(`client:${clientKey}`, limits.perClient);
      const addressWait = deps.loginLimiter.wait(`address:${input.email}`, limits.perAddress);
      const wait = Math.max(clientWait, addressWait);
      if (wait > 0) throw tooManyRequests(MESSAGES.tooManyLoginRequests, wait);
      if (!(await mayReceiveLink(input.email))) return;

      const token = newToken();
      const now = clock();
      await db
        .insertInto('login_tokens')
        .values({
          token_hash: deps.hashToken(token),
          email: input.email,
          name: input.name || null,
          return_url: safeReturnUrl(input.returnUrl, config.publicUrl),
          created_at: now.toISOString(),
          expires_at: addMinutes(now, LIMITS.loginTokenMinutes),
          used_at: null,
        })
        .execute();
      const link = `${config.publicUrl}/confirm?token=${encodeURIComponent(token)}`;
      await deps.mailer.send(loginMail(input.email, link, LIMITS.loginTokenMinutes));
    },

    /** Spends a login token (once, within 15 minutes) and starts a session. */
    async confirmLogin(
      { token }: TokenInput,
      userAgent: string | null,
    ): Promise<ConfirmResult & { sessionToken: string }> {
      const now = clock();
      const tokenHash = deps.hashToken(token);
      const result = await db.transaction().execute(async (trx) => {
        const spent = await trx
          .updateTable('login_tokens')
          .set({ used_at: now.toISOString() })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now.toISOString())
          .returning(['email', 'name', 'return_url'])
          .executeTakeFirst();
        if (!spent) return null;
        const user = await provisionUser(trx, config, spent.email, spent.name ?? '', now);
        if (!user) return null;
        await acceptPendingInvitations(trx, user, now);
        const accountId = await landingAccountId(trx, user.id, user.current_account_id);
        await setCurrentAccount(trx, user.id, accountId);
        await recordLogin(trx, user.id, accountId, now);
        return { user, returnUrl: spent.return_url, accountId };
      });
      if (!result) throw badInput(`${MESSAGES.loginFailed} The link is invalid, used or expired.`);
      // Signing in lands the user (all their sessions) in an account: live connections follow.
      deps.hubs.moveUser(result.user.id, result.accountId);
      const sessionToken = await createSession(deps, result.user.id, userAgent);
      return { sessionToken, returnUrl: result.returnUrl };
    },

    async logout(sessionToken: string | undefined): Promise<void> {
      await revokeSession(deps, sessionToken);
      // The session's live connections close and do not reconnect.
      if (sessionToken) deps.hubs.closeSession(deps.hashToken(sessionToken), HUB_ERRORS.signedOut);
    },

    /**
     * The current user of spec section 3. `user` is the row this request read with its session (and
     * changed, when the request switched accounts), so it is not read again.
     */
    async me(user: UserRow): Promise<Me> {
      const accounts = await db
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
        .select(['accounts.id', 'accounts.name', 'memberships.roles', 'memberships.last_login_at'])
        .where('memberships.user_id', '=', user.id)
        .orderBy('accounts.name')
        .orderBy('accounts.id')
        .execute();
      return {
        id: user.id,
        email: user.email,
        name: user.name,
        roles: parseRoles(user.roles),
        currentAccountId: user.current_account_id,
        accounts: accounts.map((a) => ({
          id: a.id,
          name: a.name,
          roles: parseRoles(a.roles),
          lastLoginAt: a.last_login_at,
        })),
      };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

import type { FastifyInstance } from 'fastify';
import {
  acceptInviteSchema,
  accountIdParamsSchema,
  accountSchema,
  changeRolesSchema,
  inviteEmailSchema,
  inviteSchema,
  removeMemberSchema,
  renameAccountSchema,
  renamedAccountSchema,
  switchAccountSchema,
} from '../../../shared/accounts';
import { meSchema } from '../../../shared/auth';
import type { Deps } from '../../context';
import { endpoint } from '../../http/endpoint';
import { setSessionCookie } from '../../http/session-cookie';
import { userAgentOf } from '../../http/request-user';
import type { Services } from '../../services';

const tag = 'Accounts';
const DONE = { 204: { description: 'Done.' } };

export function registerAccountsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const accounts = services.accounts;

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/switch',
      summary: 'Switch the current account',
      tag,
      access: 'user',
      body: switchAccountSchema,
      answers: { 200: { description: 'The current user, now in the account.', json: meSchema } },
    },
    async ({ ctx, body }) => {
      await accounts.switchAccount(ctx, body);
      return services.auth.me(ctx.user);
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/accounts/{accountId}',
      summary: 'An account with its members and pending invitations',
      tag,
      access: 'user',
      params: accountIdParamsSchema,
      answers: { 200: { description: 'The account.', json: accountSchema } },
    },
    async ({ ctx, params }) => accounts.getAccount(ctx, params.accountId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/accounts/{accountId}',
      summary: 'Rename an account',
      tag,
      access: 'user',
      params: accountIdParamsSchema,
      body: renameAccountSchema,
      answers: { 200: { description: 'The new name.', json: renamedAccountSchema } },
    },
    async ({ ctx, params, body }) => accounts.renameAccount(ctx, params.accountId, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/accounts/{accountId}/invite/accept',
      summary: 'Accept an invitation: signs the invited address in and lands in the account',
      tag,
      access: 'public',
      params: accountIdParamsSchema,
      body: acceptInviteSchema,
      answers: { 204: { description: 'Accepted; the session cookie is set.' } },
    },
    async ({ params, body, req, reply }) => {
      const { sessionToken } = await accounts.acceptInvite(params.accountId, body, userAgentOf(req));
      setSessionCookie(reply, deps.config, sessionToken);
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/accounts/invite',
      summary: 'Invite someone to the current account',
      tag,
      access: 'account',
      body: inviteSchema,
      errors: [409],
      answers: DONE,
    },
    async ({ ctx, body }) => accounts.invite(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/accounts/invite/resend',
      summary: 'Send an invitation again with a fresh link',
      tag,
      access: 'account',
      body: inviteEmailSchema,
      answers: DONE,
    },
    async ({ ctx, body }) => accounts.resendInvite(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/accounts/invite',
      summary: 'Cancel an invitation',
      tag,
      access: 'account',
      body: inviteEmailSchema,
      answers: DONE,
    },
    async ({ ctx, body }) => accounts.cancelInvite(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/accounts/role',
      summary: "Change a member's roles",
      tag,
      access: 'account',
      body: changeRolesSchema,
      errors: [409],
      answers: DONE,
    },
    async ({ ctx, body }) => accounts.changeRoles(ctx, body),
  );

  endpoint(
    app,
    deps,
    {
      method: 'DELETE',
      path: '/api/accounts/member',
      summary: 'Remove a member from the current account',
      tag,
      access: 'account',
      body: removeMemberSchema,
      errors: [409],
      answers: DONE,
    },
    async ({ ctx, body }) => accounts.removeMember(ctx, body),
  );
}

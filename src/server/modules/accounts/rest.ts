import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../context';
import { bodyOf, inAccount, signedIn } from '../../http/rest-context';
import { setSessionCookie } from '../../http/session-cookie';
import { userAgentOf } from '../../http/request-user';
import type { Services } from '../../services';

type AccountParams = { Params: { accountId: string } };

export function registerAccountsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const accounts = services.accounts;

  app.post('/api/switch', async (req) => {
    const caller = signedIn(req);
    await accounts.switchAccount(caller, bodyOf(req));
    return services.auth.me(caller.user);
  });

  app.get<AccountParams>('/api/accounts/:accountId', async (req) =>
    accounts.getAccount(signedIn(req), req.params.accountId),
  );

  app.put<AccountParams>('/api/accounts/:accountId', async (req) =>
    accounts.renameAccount(signedIn(req), req.params.accountId, bodyOf(req)),
  );

  app.post<AccountParams>('/api/accounts/:accountId/invite/accept', async (req, reply) => {
    const { sessionToken } = await accounts.acceptInvite(req.params.accountId, bodyOf(req), userAgentOf(req));
    setSessionCookie(reply, deps.config, sessionToken);
    return reply.status(204).send();
  });

  app.post('/api/accounts/invite', async (req, reply) => {
    await accounts.invite(await inAccount(req, deps), bodyOf(req));
    return reply.status(204).send();
  });

  app.post('/api/accounts/invite/resend', async (req, reply) => {
    await accounts.resendInvite(await inAccount(req, deps), bodyOf(req));
    return reply.status(204).send();
  });

  app.delete('/api/accounts/invite', async (req, reply) => {
    await accounts.cancelInvite(await inAccount(req, deps), bodyOf(req));
    return reply.status(204).send();
  });

  app.post('/api/accounts/role', async (req, reply) => {
    await accounts.changeRoles(await inAccount(req, deps), bodyOf(req));
    return reply.status(204).send();
  });

  app.delete('/api/accounts/member', async (req, reply) => {
    await accounts.removeMember(await inAccount(req, deps), bodyOf(req));
    return reply.status(204).send();
  });
}

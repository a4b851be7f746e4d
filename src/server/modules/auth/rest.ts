import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../context';
import { bodyOf, signedIn } from '../../http/rest-context';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { sessionTokenOf, userAgentOf } from '../../http/request-user';
import type { Services } from '../../services';

export function registerAuthRest(app: FastifyInstance, deps: Deps, services: Services): void {
  app.post<{ Querystring: { returnUrl?: string } }>('/api/login', async (req) => {
    const body = bodyOf(req);
    const returnUrl = req.query.returnUrl;
    const input = typeof body === 'object' && body !== null ? { ...body, ...(returnUrl ? { returnUrl } : {}) } : body;
    await services.auth.requestLogin(input, req.ip);
    return { message: 'If this address may sign in, a login link is on its way.' };
  });

  app.post('/api/confirm', async (req, reply) => {
    const { sessionToken, returnUrl } = await services.auth.confirmLogin(bodyOf(req), userAgentOf(req));
    setSessionCookie(reply, deps.config, sessionToken);
    return { returnUrl };
  });

  app.post('/api/logout', async (req, reply) => {
    await services.auth.logout(sessionTokenOf(req));
    clearSessionCookie(reply, deps.config);
    return reply.status(204).send();
  });

  app.get('/api/me', async (req) => services.auth.me(signedIn(req).user));
}

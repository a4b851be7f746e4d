import type { FastifyInstance } from 'fastify';
import { messageAnswerSchema } from '../../../shared/api';
import { confirmResultSchema, loginQuerySchema, loginRequestSchema, meSchema, tokenSchema } from '../../../shared/auth';
import type { Deps } from '../../context';
import { endpoint } from '../../http/endpoint';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { sessionTokenOf, userAgentOf } from '../../http/request-user';
import type { Services } from '../../services';

const tag = 'Sign-in';

export function registerAuthRest(app: FastifyInstance, deps: Deps, services: Services): void {
  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/login',
      summary: 'Ask for a login link by e-mail',
      description: 'The answer is the same whether or not the address may sign in.',
      tag,
      access: 'public',
      query: loginQuerySchema,
      body: loginRequestSchema,
      errors: [429],
      answers: { 200: { description: 'A link is on its way if the address may sign in.', json: messageAnswerSchema } },
    },
    async ({ query, body, req }) => {
      await services.auth.requestLogin({ ...body, returnUrl: query.returnUrl ?? body.returnUrl }, req.ip);
      return { message: 'If this address may sign in, a login link is on its way.' };
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/confirm',
      summary: "Confirm a login link's token and start a session",
      tag,
      access: 'public',
      body: tokenSchema,
      answers: { 200: { description: 'Signed in; the session cookie is set.', json: confirmResultSchema } },
    },
    async ({ body, req, reply }) => {
      const { sessionToken, returnUrl } = await services.auth.confirmLogin(body, userAgentOf(req));
      setSessionCookie(reply, deps.config, sessionToken);
      return { returnUrl };
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/logout',
      summary: 'End the session',
      tag,
      access: 'public',
      answers: { 204: { description: 'Signed out.' } },
    },
    async ({ req, reply }) => {
      await services.auth.logout(sessionTokenOf(req));
      clearSessionCookie(reply, deps.config);
    },
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/me',
      summary: 'The signed-in user with their accounts',
      tag,
      access: 'user',
      answers: { 200: { description: 'The current user.', json: meSchema } },
    },
    async ({ ctx }) => services.auth.me(ctx.user),
  );
}

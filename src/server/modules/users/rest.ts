import type { FastifyInstance } from 'fastify';
import { renameUserSchema, renamedUserSchema } from '../../../shared/accounts';
import type { Deps } from '../../context';
import { endpoint } from '../../http/endpoint';
import type { Services } from '../../services';

export function registerUsersRest(app: FastifyInstance, deps: Deps, services: Services): void {
  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/users',
      summary: 'Rename the signed-in user',
      tag: 'Users',
      access: 'user',
      body: renameUserSchema,
      answers: { 200: { description: 'The new name.', json: renamedUserSchema } },
    },
    async ({ ctx, body }) => services.users.renameUser(ctx, body),
  );
}

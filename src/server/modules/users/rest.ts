import type { FastifyInstance } from 'fastify';
import { bodyOf, signedIn } from '../../http/rest-context';
import type { Services } from '../../services';

export function registerUsersRest(app: FastifyInstance, services: Services): void {
  app.put('/api/users', async (req) => services.users.renameUser(signedIn(req), bodyOf(req)));
}

import { renameUserSchema } from '../../../shared/accounts';
import type { Deps, UserContext } from '../../context';
import { parseInput } from '../../validate';

export function createUsersService(deps: Deps) {
  return {
    async renameUser(caller: UserContext, raw: unknown): Promise<{ name: string }> {
      const { name } = parseInput(renameUserSchema, raw);
      await deps.db.updateTable('users').set({ name }).where('id', '=', caller.user.id).execute();
      return { name };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

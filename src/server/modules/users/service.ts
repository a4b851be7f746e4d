import type { RenameUserInput } from '../../../shared/accounts';
import type { Deps, UserContext } from '../../context';

export function createUsersService(deps: Deps) {
  return {
    async renameUser(caller: UserContext, { name }: RenameUserInput): Promise<{ name: string }> {
      await deps.db.updateTable('users').set({ name }).where('id', '=', caller.user.id).execute();
      return { name };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

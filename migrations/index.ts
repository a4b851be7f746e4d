import type { Migration } from 'kysely';
import * as m0001 from './0001_init';

/** Every migration in order; a new file is added here too, so the list is explicit. */
export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
};

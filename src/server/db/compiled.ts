/**
 * A lookup built and compiled once per database, then run with each call's values. Kysely builds and
 * compiles a query on every call, which for a join costs more than SQLite's run of it (~0.1 ms); the
 * lookups every request makes (its session) would pay that each time. Values bind in the order
 * `compile()` listed the placeholders the query was built with.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database';

export function compiledLookup<R>(build: (db: Db) => Compilable<R>) {
  const compiled = new WeakMap<Db, CompiledQuery<R>>();
  return async (db: Db, parameters: readonly unknown[]): Promise<R[]> => {
    let query = compiled.get(db);
    if (!query) {
      query = build(db).compile();
      compiled.set(db, query);
    }
    if (query.parameters.length !== parameters.length) {
      throw new Error(`The lookup takes ${query.parameters.length} values, not ${parameters.length}`);
    }
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
